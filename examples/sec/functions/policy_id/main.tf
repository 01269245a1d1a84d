terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# The id of a policy another configuration made with policy_id_suffix = "s3public-1", to name it here.
output "policy_id" {
  value = provider::sec::policy_id("acme", "s3public-1")
}
