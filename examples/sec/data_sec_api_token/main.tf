terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Kept for configurations written for the upstream provider: the token is stored in the state.
# New configurations use the ephemeral resource sec_access_token, which never stores it.
data "sec_api_token" "current" {}

output "api_token" {
  value     = data.sec_api_token.current.token
  sensitive = true
}
