terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_b_agentless_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_cloud_b_agentless_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

# Agentless vulnerability scanning of a CloudB project from a dedicated scanning project, twice a day.
resource "sec_integration_cloud_b_agentless_scanning" "example" {
  name                = "example-cloud-b-agentless"
  resource_level      = "PROJECT"
  resource_id         = "acme-production"
  bucket_name         = "acme-agentless-results"
  scanning_project_id = "acme-scanner"
  scan_frequency      = 12
  filter_list         = ["acme-production", "acme-staging"]

  credentials {
    client_id      = "109876543210987654321"
    client_email   = "sec-agentless@acme-scanner.iam.cloud-b.example"
    private_key_id = "0123456789abcdef0123456789abcdef01234567"
    private_key    = var.cloud_b_agentless_private_key
  }
}
