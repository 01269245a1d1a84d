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
  name           = "example-ds-schedules-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = local.small_package_id
    }
  }
}

resource "vdb_accounts_backup_schedule" "nightly" {
  cluster_id      = vdb_accounts_cluster.cluster.id
  cron_expression = "@daily"
}

# The backup schedules of a cluster.
data "vdb_accounts_backup_schedules" "example" {
  cluster_id = vdb_accounts_cluster.cluster.id
  depends_on = [vdb_accounts_backup_schedule.nightly]
}
