terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cloud_c_agentless_client_secret" {
  description = "Client secret of the application registration. Pass the real one with TF_VAR_cloud_c_agentless_client_secret; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-client-secret"
}

# Agentless vulnerability scanning of one CloudC subscription from a scanning subscription.
resource "sec_integration_cloud_c_agentless_scanning" "example" {
  name                         = "example-cloud-c-agentless"
  integration_level            = "SUBSCRIPTION"
  tenant_id                    = "3f1e2d4c-5b6a-4789-9abc-def012345678"
  scanning_subscription_id     = "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
  scanning_resource_group_name = "sec-agentless-scanner"
  storage_account_url          = "https://acmeagentless.blob.cloud-c.example"
  blob_container_name          = "agentless-results"
  subscriptions_list           = ["7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"]

  credentials {
    client_id     = "0c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
    client_secret = var.cloud_c_agentless_client_secret
  }
}
