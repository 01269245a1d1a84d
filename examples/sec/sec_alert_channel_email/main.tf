terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# E-mail alerts to the security team (the onboarding channel cannot be edited; add your own).
resource "sec_alert_channel_email" "example" {
  name       = "example-email"
  recipients = ["security@example.com", "oncall@example.com"]
}
