terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# An access token for the agents of one fleet. Destroying it disables the token and renames it,
# because the platform cannot delete tokens.
resource "sec_agent_access_token" "example" {
  name        = "example-agent-token"
  description = "Agents in the build fleet"
  os          = "linux"
}

output "agent_token" {
  value     = sec_agent_access_token.example.token
  sensitive = true
}
