terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# A query of trail events: password changes of database clusters that took effect at once.
# The platform picks the evaluator the data source needs (here CloudATrail).
resource "sec_query" "example" {
  query_id = "TF_ACC_Database_Password_Change"
  query    = <<-EOT
    {
      source {
        CloudATrailRawEvents
      }
      filter {
        EVENT_SOURCE = 'database.cloud-a.example'
        and EVENT_NAME = 'ModifyDBCluster'
        and ERROR_CODE is null
      }
      return distinct {
        INSERT_ID,
        INSERT_TIME,
        EVENT_TIME,
        EVENT
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

output "query_id" {
  value = sec_query.example.id
}
