terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts posted as JSON to any HTTPS endpoint.
resource "sec_alert_channel_webhook" "example" {
  name        = "tf-acc-webhook"
  webhook_url = "https://hooks.acme.example/security/alerts"
}
