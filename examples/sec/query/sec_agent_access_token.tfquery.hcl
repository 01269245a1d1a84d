# The agent token named example-agent-token (the API searches tokens by name).
list "sec_agent_access_token" "example" {
  provider = sec

  config {
    name = "example-agent-token"
  }
}
