# Actions need Terraform 1.14 or later.
terraform {
  required_version = ">= 1.14"
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Credentials come from SEC_ACCOUNT, SEC_API_KEY and SEC_API_SECRET.
provider "sec" {}

resource "sec_integration_cloud_a_cfg" "production" {
  name = "production account"
  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-audit"
    external_id = "sec-7f3c2a"
  }

  lifecycle {
    # A newly integrated account is scanned at once, not at the next scheduled scan.
    action_trigger {
      events  = [after_create]
      actions = [action.sec_inventory_scan.cloud_a]
    }
  }
}

# Also on demand: terraform apply -invoke=action.sec_inventory_scan.cloud_a
action "sec_inventory_scan" "cloud_a" {
  config {
    cloud = "CLOUD_A"
  }
}
