# Actions need Terraform 1.14 or later.
terraform {
  required_version = ">= 1.14"
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

variable "cluster_name" {
  type    = string
  default = "search-prod"
}

data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}

resource "vdb_accounts_cluster" "main" {
  name           = var.cluster_name
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 3
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }

  lifecycle {
    # Every change of the cluster (an upgrade, more nodes) waits for a fresh backup; a failed backup
    # stops the apply before the cluster is touched.
    action_trigger {
      events  = [before_update]
      actions = [action.vdb_cluster_backup.before_change]
    }
  }
}

# An action that runs before a change of a resource cannot refer to that resource (Terraform
# reports a cycle): it finds the cluster by name instead.
data "vdb_accounts_clusters" "all" {}

action "vdb_cluster_backup" "before_change" {
  config {
    cluster_id       = one([for c in data.vdb_accounts_clusters.all.clusters : c.id if c.name == var.cluster_name])
    retention_period = "168h" # kept for a week
    timeout          = "2h"   # how long the apply waits for the backup
  }
}

# A backup on demand: terraform apply -invoke=action.vdb_cluster_backup.now
action "vdb_cluster_backup" "now" {
  config {
    cluster_id = vdb_accounts_cluster.main.id
  }
}
