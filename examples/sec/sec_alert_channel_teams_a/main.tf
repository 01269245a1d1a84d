terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "teams_a_webhook_url" {
  description = "Incoming webhook URL of the TeamsA space; it carries the space's secret. Pass the real one with TF_VAR_teams_a_webhook_url; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "https://teams-a.example/v1/webhooks/incoming/security-1"
}

# Alerts posted to a TeamsA space through its incoming webhook.
resource "sec_alert_channel_teams_a" "example" {
  name        = "example-teams-a"
  webhook_url = var.teams_a_webhook_url
}
