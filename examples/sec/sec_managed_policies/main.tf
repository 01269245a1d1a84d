terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Turns on a built-in policy the account has disabled and raises its severity. Destroying this
# resource (or dropping a policy block) puts back the settings the policy had before.
resource "sec_managed_policies" "example" {
  policy {
    id       = "platform-global-75"
    enabled  = true
    severity = "High"
  }
}
