terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Agentless vulnerability scanning of one CloudA account, every 24 hours, containers included.
resource "sec_integration_cloud_a_agentless_scanning" "example" {
  name            = "example-cloud-a-agentless"
  scan_frequency  = 24
  scan_containers = true
  account_id      = "123456789012"
  bucket_arn      = "arn:cloud-a:storage:::acme-agentless-results"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-agentless"
    external_id = "sec-7f3c2a"
  }
}

# The scanner deployment needs the token; keep it out of logs.
output "agentless_server_token" {
  value     = sec_integration_cloud_a_agentless_scanning.example.server_token
  sensitive = true
}
