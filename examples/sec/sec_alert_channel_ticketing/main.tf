terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "ticketing_password" {
  description = "Password of the Ticketing user. Pass the real one with TF_VAR_ticketing_password; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-ticketing-password"
}

# Incidents in a Ticketing instance, one per affected resource, with urgency set by a template.
resource "sec_alert_channel_ticketing" "example" {
  name           = "example-ticketing"
  instance_url   = "https://acme.ticketing.example"
  username       = "security-bot"
  password       = var.ticketing_password
  issue_grouping = "Resources"

  custom_template_file = jsonencode({
    urgency = "1"
    impact  = "2"
  })
}
