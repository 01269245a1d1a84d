# The agent token named build-fleet (the API searches tokens by name).
list "sec_agent_access_token" "fleet" {
  provider = sec

  config {
    name = "build-fleet"
  }
}
