terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# The query the compliance policy assesses: instances that expose an unencrypted volume.
resource "sec_query" "unencrypted_volumes" {
  query_id = "TF_ACC_Compliance_Unencrypted_Volumes"
  query    = <<-EOT
    {
      source {
        SEC_CFG_CLOUD_A_INSTANCES
      }
      filter {
        RESOURCE_CONFIG:BlockDeviceMappings.Ebs.Encrypted = 'false'
      }
      return distinct {
        ACCOUNT_ID,
        RESOURCE_KEY,
        RESOURCE_REGION
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

# Assessed daily for the compliance reports; with policy_id_suffix the id is "<account>-tfacccompliance".
resource "sec_policy_compliance" "example" {
  title            = "Instances with unencrypted volumes"
  query_id         = sec_query.unencrypted_volumes.id
  description      = "Instances with at least one volume that is not encrypted at rest"
  remediation      = "Encrypt the volume, or replace it with an encrypted copy"
  severity         = "Medium"
  policy_id_suffix = "tfacccompliance"
  tags             = ["domain:storage"]
}
