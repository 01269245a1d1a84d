terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "metrics_api_key" {
  description = "API key of the Metrics account. Pass the real one with TF_VAR_metrics_api_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-metrics-api-key"
}

# Alert summaries sent as logs to a Metrics account hosted in the EU.
resource "sec_alert_channel_metrics" "example" {
  name            = "example-metrics"
  api_key         = var.metrics_api_key
  metrics_site    = "eu"
  metrics_service = "Logs Summary"
}
