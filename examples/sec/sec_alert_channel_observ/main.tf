terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "observ_insert_key" {
  description = "Insert API key of the Observ account. Pass the real one with TF_VAR_observ_insert_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "x-2338053-insert-key"
}

# Alerts recorded as custom events in an Observ account.
resource "sec_alert_channel_observ" "example" {
  name       = "example-observ"
  account_id = 2338053
  insert_key = var.observ_insert_key
}
