terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# The activity trail of a CloudA organisation, read from the trail's notification queue. Member
# accounts of the organisation are spread over two platform accounts; the rest go to "acme".
resource "sec_integration_cloud_a_ct" "example" {
  name      = "example-cloud-a-ct"
  queue_url = "https://queue.cloud-a.example/123456789012/sec-trail-notifications"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-trail"
    external_id = "sec-7f3c2a"
  }

  org_account_mappings {
    default_platform_account = "acme"

    mapping {
      platform_account = "acme-eu"
      cloud_a_accounts = ["210987654321", "345678901234"]
    }

    mapping {
      platform_account = "acme-us"
      cloud_a_accounts = ["456789012345"]
    }
  }
}
