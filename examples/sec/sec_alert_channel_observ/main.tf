terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts recorded as custom events in an Observ account.
resource "sec_alert_channel_observ" "example" {
  name       = "tf-acc-observ"
  account_id = 2338053
  insert_key = "x-2338053-insert-key"
}
