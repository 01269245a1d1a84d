terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_c_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_registry_c_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

# Images of a CloudB container registry, read with a service-account key.
resource "sec_integration_registry_c" "example" {
  name            = "example-registry-c"
  registry_domain = "gcr.io"

  credentials {
    client_email   = "registry-reader@acme-images.iam.cloud-b.example"
    client_id      = "109876543210987654321"
    private_key    = var.registry_c_private_key
    private_key_id = "0123456789abcdef0123456789abcdef01234567"
  }

  non_os_package_support = true
}
