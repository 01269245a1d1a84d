terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "teams_b_webhook_url" {
  description = "Incoming webhook URL of the TeamsB channel; it carries the channel's secret. Pass the real one with TF_VAR_teams_b_webhook_url; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "https://acme.teams-b.example/webhookb2/security-1"
}

# Alerts posted to a TeamsB channel through its incoming webhook.
resource "sec_alert_channel_teams_b" "example" {
  name        = "example-teams-b"
  webhook_url = var.teams_b_webhook_url
}
