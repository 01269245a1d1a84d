terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_a_secret_access_key" {
  description = "Secret of the access key, for access-key authentication. Pass the real one with TF_VAR_registry_a_secret_access_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-secret-access-key"
}

# Images of a CloudA container registry, read by assuming a role. For access-key authentication,
# set access_key_id and secret_access_key instead of the role pair (the switch creates a new
# integration).
resource "sec_integration_registry_a" "example" {
  name            = "example-registry-a"
  registry_domain = "123456789012.registry-a.us-west-2.example.com"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-registry-reader"
    external_id = "example-registry-a-external-id"
  }

  limit_by_tags  = ["prod-*"]
  limit_num_imgs = 10

  limit_by_label {
    key   = "team"
    value = "payments"
  }
}
