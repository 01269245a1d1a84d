# Runs against the sec emulator (or a real account): SEC_API_URL, SEC_ACCOUNT, SEC_API_KEY and
# SEC_API_SECRET in the environment. Each run applies; `terraform test` destroys everything at the end.
variables {
  team       = "payments"
  recipients = ["payments-oncall@example.com"]
}

run "routes_the_team_alerts" {
  assert {
    condition     = sec_alert_channel_email.team.name == "payments-alerts"
    error_message = "The channel is named after the team."
  }
  assert {
    condition     = sec_alert_rule.team.alert_channels == toset([output.channel_id])
    error_message = "The rule sends its alerts to the team's channel."
  }
  assert {
    condition     = sec_alert_rule.team.enabled
    error_message = "The rule is enabled by default."
  }
}

run "routes_low_severities_when_asked" {
  variables {
    severities = ["Medium", "Low"]
  }
  assert {
    condition     = toset(sec_alert_rule.team.severities) == toset(["Medium", "Low"])
    error_message = "The rule routes the severities given."
  }
  assert {
    condition     = output.rule_id == run.routes_the_team_alerts.rule_id
    error_message = "A change of severities updates the rule in place."
  }
}

run "refuses_a_team_name_with_capitals" {
  command = plan
  variables {
    team = "Payments"
  }
  expect_failures = [var.team]
}
