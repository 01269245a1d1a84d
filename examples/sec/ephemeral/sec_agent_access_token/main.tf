terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Account, API key and secret come from SEC_ACCOUNT, SEC_API_KEY and SEC_API_SECRET.
provider "sec" {}

# The secret of an agent token made elsewhere (in the console, or another configuration), for this run only.
# For a token this configuration creates, write `name = sec_agent_access_token.<name>.id` instead:
# Terraform then opens it after the token is created, not while planning, when it does not exist yet.
ephemeral "sec_agent_access_token" "fleet" {
  name = "example-fleet"
}

# Handed to the agents' installer through a write-only argument: it never enters the state.
resource "sec_alert_channel_webhook" "installer" {
  name                   = "example-installer"
  webhook_url_wo         = "https://installer.example.com/enroll/${ephemeral.sec_agent_access_token.fleet.token}"
  webhook_url_wo_version = 1
  test_integration       = false
}
