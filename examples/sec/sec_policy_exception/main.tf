terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Exempts two sandbox accounts, and resources tagged env=sandbox, from a built-in policy.
# Import with "<policy_id>:<exception_id>".
resource "sec_policy_exception" "example" {
  policy_id   = "platform-global-73"
  description = "Sandbox accounts hold only test data"

  constraint {
    field_key    = "accountIds"
    field_values = ["111111111111", "222222222222"]
  }

  constraint {
    field_key = "resourceTags"

    field_values_map {
      key   = "env"
      value = ["sandbox"]
    }
  }
}
