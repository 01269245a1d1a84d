terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts posted to a TeamsA space through its incoming webhook.
resource "sec_alert_channel_teams_a" "example" {
  name        = "tf-acc-teams-a"
  webhook_url = "https://teams-a.example/v1/webhooks/incoming/security-1"
}
