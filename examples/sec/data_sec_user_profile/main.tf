terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Who owns the API key the provider uses, and which accounts it can reach.
data "sec_user_profile" "current" {}

output "api_user" {
  value = data.sec_user_profile.current.username
}

output "accounts" {
  value = [for a in data.sec_user_profile.current.accounts : a.account_name]
}
