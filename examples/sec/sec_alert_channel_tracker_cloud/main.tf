terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "tracker_api_token" {
  description = "API token of the tracker user. Pass the real one with TF_VAR_tracker_api_token; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-tracker-api-token"
}

# One tracker issue per event type, with labels filled in by a custom template.
resource "sec_alert_channel_tracker_cloud" "example" {
  name          = "example-tracker-cloud"
  tracker_url   = "acme.tracker.example"
  issue_type    = "Bug"
  project_key   = "SEC"
  username      = "security-bot@acme.example"
  api_token     = var.tracker_api_token
  configuration = "Unidirectional"

  custom_template_file = jsonencode({
    fields = {
      labels = ["security", "platform-alert"]
    }
  })
}
