terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# A token managed elsewhere would simply be looked up by name; here the example creates one first.
resource "sec_agent_access_token" "fleet" {
  name        = "example-ds-agent-token"
  description = "Looked up by the data source example"
}

data "sec_agent_access_token" "example" {
  name = sec_agent_access_token.fleet.name

  # Read after the token exists.
  depends_on = [sec_agent_access_token.fleet]
}

output "agent_token" {
  value     = data.sec_agent_access_token.example.token
  sensitive = true
}
