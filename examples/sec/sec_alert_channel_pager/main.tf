terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "pager_integration_key" {
  description = "Integration key of the Pager service. Pass the real one with TF_VAR_pager_integration_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-pager-integration-key"
}

# Platform alerts open incidents on a Pager service.
resource "sec_alert_channel_pager" "example" {
  name            = "example-pager"
  integration_key = var.pager_integration_key
}
