terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Reports go to e-mail alert channels only.
resource "sec_alert_channel_email" "reports" {
  name       = "example-report-rule-email"
  recipients = ["compliance@example.com"]
}

# Weekly trend reports plus the Cloud A compliance and daily reports, for critical and high findings.
resource "sec_report_rule" "example" {
  name                 = "example-report-rule"
  description          = "Compliance reports for the security team"
  severities           = ["Critical", "High"]
  email_alert_channels = [sec_alert_channel_email.reports.intg_guid]
  weekly_snapshot      = true

  cloud_a_compliance_reports {
    pci = true
    soc = true
  }

  daily_compliance_reports {
    host_security      = true
    cloud_a_compliance = true
  }
}
