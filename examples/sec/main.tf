# The sec provider's main example: an e-mail alert channel, an agent access token and the profile
# of the API key's owner. Settings come from SEC_ACCOUNT, SEC_API_KEY, SEC_API_SECRET (and
# SEC_API_URL when pointing at the emulator); see the README.
terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "recipients" {
  type    = list(string)
  default = ["oncall@example.com", "security@example.com"]
}

variable "token_description" {
  type    = string
  default = "Agents in the CI fleet"
}

resource "sec_alert_channel_email" "security" {
  name       = "security-team"
  recipients = var.recipients
}

resource "sec_agent_access_token" "ci" {
  name        = "ci-fleet"
  description = var.token_description
}

data "sec_user_profile" "me" {}

output "channel_guid" {
  value = sec_alert_channel_email.security.intg_guid
}

output "token_alias" {
  value = sec_agent_access_token.ci.id
}

output "api_user" {
  value = data.sec_user_profile.me.username
}
