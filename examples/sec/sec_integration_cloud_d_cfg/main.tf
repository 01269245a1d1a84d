terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_d_private_key" {
  description = "Private half (PEM) of the API signing key. Pass the real one with TF_VAR_cloud_d_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

# Configuration assessment of a CloudD tenancy, signing requests as a dedicated user.
resource "sec_integration_cloud_d_cfg" "example" {
  name        = "example-cloud-d-cfg"
  home_region = "eu-frankfurt-1"
  tenant_id   = "tenancy.cloud-d.example.aaaaaaaa3nvxm2bq"
  tenant_name = "acme"
  user_id     = "user.cloud-d.example.aaaaaaaa7xkq4mfz"

  credentials {
    fingerprint = "12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef"
    private_key = var.cloud_d_private_key
  }
}
