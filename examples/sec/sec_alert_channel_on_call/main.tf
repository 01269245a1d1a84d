terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "on_call_webhook_url" {
  description = "REST endpoint URL of the on-call integration; it carries the routing key. Pass the real one with TF_VAR_on_call_webhook_url; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "https://alert.on-call.example/integrations/generic/20131114/alert/key/security"
}

# Alerts routed by an on-call service; the URL carries the service's routing key.
resource "sec_alert_channel_on_call" "example" {
  name        = "example-on-call"
  webhook_url = var.on_call_webhook_url
}
