terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts posted to a TeamsB channel through its incoming webhook.
resource "sec_alert_channel_teams_b" "example" {
  name        = "tf-acc-teams-b"
  webhook_url = "https://acme.teams-b.example/webhookb2/security-1"
}
