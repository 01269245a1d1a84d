terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# The ids of several custom policies of the account, in the order their suffixes are given.
output "policy_ids" {
  value = provider::sec::policy_ids("https://acme.sec-platform.example", "s3public-1", "iamkeys-90")
}
