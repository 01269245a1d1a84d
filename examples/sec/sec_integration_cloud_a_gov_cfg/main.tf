terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "gov_secret_access_key" {
  description = "Secret of the access key. Pass the real one with TF_VAR_gov_secret_access_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-gov-secret-access-key"
}

# Configuration assessment of a CloudA account in the government regions, with an access key.
resource "sec_integration_cloud_a_gov_cfg" "example" {
  name       = "example-cloud-a-gov-cfg"
  account_id = "123456789012"

  credentials {
    access_key_id     = "AKIDGOVEXAMPLE0001"
    secret_access_key = var.gov_secret_access_key
  }
}
