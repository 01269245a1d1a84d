terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_b_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_registry_b_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

variable "registry_b_private_key_id" {
  description = "Id of the service-account key. Pass the real one with TF_VAR_registry_b_private_key_id; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-key-id"
}

# Images of a CloudB artifact registry in one region, read with a service-account key.
resource "sec_integration_registry_b" "example" {
  name            = "example-registry-b"
  registry_domain = "us-east1-docker.pkg.dev"

  credentials {
    client_email   = "registry-reader@acme-images.iam.cloud-b.example"
    client_id      = "109876543210987654321"
    private_key    = var.registry_b_private_key
    private_key_id = var.registry_b_private_key_id
  }

  limit_by_repositories = ["acme-images/api", "acme-images/web"]
}
