terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Agentless vulnerability scanning of a CloudA organisation from one scanning account: two member
# accounts and one organisational unit, mapped to platform accounts.
resource "sec_integration_cloud_a_org_agentless_scanning" "example" {
  name                      = "example-cloud-a-org-agentless"
  scan_frequency            = 24
  scan_host_vulnerabilities = true
  scanning_account          = "222222222222"
  management_account        = "111111111111"
  monitored_accounts        = ["333333333333", "444444444444", "ou-ab12-cdef3456"]

  credentials {
    role_arn    = "arn:cloud-a:iam::222222222222:role/sec-platform-agentless"
    external_id = "sec-7f3c2a"
  }

  org_account_mappings {
    default_platform_account = "acme"

    mapping {
      platform_account = "acme-prod"
      cloud_a_accounts = ["333333333333"]
    }
  }
}
