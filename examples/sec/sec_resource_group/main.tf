terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Production Cloud A resources: the production account, in the US regions or owned by the security team.
resource "sec_resource_group" "example" {
  name        = "example-resource-group"
  type        = "CLOUD_A"
  description = "Production resources of the security team"

  group {
    operator = "AND"

    filter {
      filter_name = "production-account"
      field       = "Account"
      operation   = "EQUALS"
      value       = ["123456789012"]
    }

    group {
      operator = "OR"

      filter {
        filter_name = "regions"
        field       = "Region"
        operation   = "STARTS_WITH"
        value       = ["us-"]
      }

      filter {
        filter_name = "security-team"
        field       = "Resource Tag"
        key         = "team"
        operation   = "EQUALS"
        value       = ["security"]
      }
    }
  }
}
