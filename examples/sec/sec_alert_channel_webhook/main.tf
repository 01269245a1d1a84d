terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "alerts_webhook_url" {
  description = "URL that receives the alerts; it may carry a secret. Pass the real one with TF_VAR_alerts_webhook_url; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "https://hooks.acme.example/security/alerts"
}

# Alerts posted as JSON to any HTTPS endpoint.
resource "sec_alert_channel_webhook" "example" {
  name        = "example-webhook"
  webhook_url = var.alerts_webhook_url
}
