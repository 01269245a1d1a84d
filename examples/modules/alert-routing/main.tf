# A team's alert routing: an e-mail channel for the team and a rule that sends it the alerts of the
# severities it handles. Its tests (tests/*.tftest.hcl) run with `terraform test` against the sec
# emulator: see the README's "Testing your modules".
terraform {
  required_version = ">= 1.7"
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

resource "sec_alert_channel_email" "team" {
  name       = "${var.team}-alerts"
  recipients = var.recipients
}

resource "sec_alert_rule" "team" {
  name           = "${var.team}-alerts"
  description    = "Alerts of ${join(", ", var.severities)} severity for ${var.team}"
  alert_channels = [sec_alert_channel_email.team.id]
  severities     = var.severities
}
