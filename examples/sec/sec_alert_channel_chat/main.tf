terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts posted to a dedicated chat channel through its incoming webhook.
resource "sec_alert_channel_chat" "example" {
  name        = "tf-acc-chat"
  webhook_url = "https://chat.example/services/T0000/B0000/security-1"
}
