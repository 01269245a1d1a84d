terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Adopting a custom policy by its id: the configuration repeats the suffix its id holds.
locals {
  policy_id = "acme-s3public-1"
}

output "policy_id_suffix" {
  value = provider::sec::policy_id_suffix(local.policy_id, "acme")
}
