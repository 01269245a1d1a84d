terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# The query the policy evaluates: object store buckets whose access control grants everyone read.
resource "sec_query" "buckets_public" {
  query_id = "TF_ACC_Buckets_Public"
  query    = <<-EOT
    {
      source {
        SEC_CFG_CLOUD_A_BUCKETS
      }
      filter {
        RESOURCE_CONFIG:Acl.Grants.Grantee.URI = 'all-users'
      }
      return distinct {
        ACCOUNT_ID,
        RESOURCE_KEY,
        RESOURCE_REGION,
        RESOURCE_TYPE,
        SERVICE
      }
    }
  EOT

  # The platform refuses to delete a query a policy evaluates, and Terraform deletes before it
  # creates by default: with create_before_destroy, a new query_id makes the new query, moves the
  # policies to it, and only then deletes the old one.
  lifecycle {
    create_before_destroy = true
  }
}

# A custom policy that evaluates the query daily and alerts through a built-in alert profile.
# With policy_id_suffix the policy id is "<account>-tfaccpolicy".
resource "sec_policy" "example" {
  title            = "Publicly readable buckets"
  query_id         = sec_query.buckets_public.id
  description      = "Object store buckets that anyone can read"
  remediation      = "Remove public read access from the bucket policy and ACLs"
  severity         = "High"
  type             = "Violation"
  evaluation       = "Daily"
  policy_id_suffix = "tfaccpolicy"
  tags             = ["team:storage"]

  alerting {
    profile = "SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation"
  }
}

output "policy_id" {
  value = sec_policy.example.id
}
