terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_b_cfg_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_cloud_b_cfg_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

# Configuration assessment of a CloudB project, read with a service-account key.
resource "sec_integration_cloud_b_cfg" "example" {
  name           = "example-cloud-b-cfg"
  resource_level = "PROJECT"
  resource_id    = "acme-production"

  credentials {
    client_id      = "109876543210987654321"
    client_email   = "sec-platform@acme-production.iam.cloud-b.example"
    private_key_id = "0123456789abcdef0123456789abcdef01234567"
    private_key    = var.cloud_b_cfg_private_key
  }
}
