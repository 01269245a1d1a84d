terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "log_sink_ingest_token" {
  description = "Token of the event collector. Pass the real one with TF_VAR_log_sink_ingest_token; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-ingest-token"
}

# Alerts indexed by a LogSink HTTP event collector over TLS.
resource "sec_alert_channel_log_sink" "example" {
  name         = "example-log-sink"
  ingest_token = var.log_sink_ingest_token
  host         = "logs.acme.example"
  port         = 8088
  ssl          = true

  event_data {
    index  = "security"
    source = "sec-platform"
  }
}
