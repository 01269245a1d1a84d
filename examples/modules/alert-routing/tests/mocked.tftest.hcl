# No emulator and no credentials: the provider is mocked (Terraform still starts it once, for its
# schema, and it still validates the configuration). Mocked resources get made-up values for what the
# platform computes, unless given here.
mock_provider "sec" {
  mock_resource "sec_alert_channel_email" {
    defaults = {
      id = "TEAM_0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
    }
  }
}

variables {
  team       = "search"
  recipients = ["search-oncall@example.com"]
}

run "describes_the_rule" {
  assert {
    condition     = sec_alert_rule.team.description == "Alerts of Critical, High severity for search"
    error_message = "The rule's description names the severities and the team."
  }
  assert {
    condition     = output.channel_id == "TEAM_0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
    error_message = "The module gives the channel's id."
  }
}
