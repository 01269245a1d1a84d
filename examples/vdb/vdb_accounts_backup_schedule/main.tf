terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

# Node sizes are booking packages; pick one by name.
data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}

locals {
  small_package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
}

resource "vdb_accounts_cluster" "cluster" {
  name           = "example-schedule-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = local.small_package_id
    }
  }
}

# Nightly backups at 03:00, each kept for three days.
resource "vdb_accounts_backup_schedule" "example" {
  cluster_id       = vdb_accounts_cluster.cluster.id
  cron_expression  = "0 3 * * *"
  retention_period = "72h"
}
