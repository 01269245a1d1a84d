terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts routed by an on-call service; the URL carries the service's routing key.
resource "sec_alert_channel_on_call" "example" {
  name        = "tf-acc-on-call"
  webhook_url = "https://alert.on-call.example/integrations/generic/20131114/alert/key/security"
}
