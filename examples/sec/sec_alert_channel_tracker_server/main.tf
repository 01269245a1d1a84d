terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "tracker_password" {
  description = "Password of the tracker user. Pass the real one with TF_VAR_tracker_password; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-tracker-password"
}

# Issues on a self-hosted tracker server; it must accept the platform's outbound addresses.
resource "sec_alert_channel_tracker_server" "example" {
  name            = "example-tracker-server"
  tracker_url     = "tracker.acme.example"
  issue_type      = "Task"
  project_key     = "OPS"
  username        = "security-bot"
  password        = var.tracker_password
  group_issues_by = "Resources"
}
