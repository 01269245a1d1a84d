terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Tells the platform that this module ran, and which version of it.
# Set SEC_TELEMETRY_DISABLE to anything to send nothing.
data "sec_metric_module" "this" {
  name    = "terraform-sec-cloud-a-config"
  version = "1.4.0"
}
