terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_b_at_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_cloud_b_at_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

# The audit trail of a CloudB organisation, read from a subscription with a service-account key.
resource "sec_integration_cloud_b_at" "example" {
  name           = "example-cloud-b-at"
  resource_level = "ORGANIZATION"
  resource_id    = "123456789012"
  subscription   = "projects/acme-security/subscriptions/sec-audit-trail"

  credentials {
    client_id      = "109876543210987654321"
    client_email   = "sec-platform@acme-security.iam.cloud-b.example"
    private_key_id = "0123456789abcdef0123456789abcdef01234567"
    private_key    = var.cloud_b_at_private_key
  }
}
