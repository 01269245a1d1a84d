terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_c_dspm_client_secret" {
  description = "Client secret of the application registration. Pass the real one with TF_VAR_cloud_c_dspm_client_secret; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-client-secret"
}

# Data security posture management in a CloudC tenant, scanning one region.
resource "sec_integration_cloud_c_dspm" "example" {
  name                = "example-cloud-c-dspm"
  tenant_id           = "3f1e2d4c-5b6a-4789-9abc-def012345678"
  storage_account_url = "https://acmedspm.blob.cloud-c.example"
  blob_container_name = "dspm-results"
  regions             = ["westeurope"]

  credentials {
    client_id     = "0c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
    client_secret = var.cloud_c_dspm_client_secret
  }
}
