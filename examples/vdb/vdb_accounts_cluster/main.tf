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

# A one-node cluster in Frankfurt with 20 GiB of extra disk per node. Creating and resizing wait
# until the cluster is healthy and its URL is published.
resource "vdb_accounts_cluster" "example" {
  name           = "example-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  labels {
    key   = "team"
    value = "search"
  }

  configuration {
    number_of_nodes          = 1
    allowed_ip_source_ranges = ["10.0.0.0/8"]
    restart_policy           = "CLUSTER_CONFIGURATION_RESTART_POLICY_ROLLING"

    node_configuration {
      package_id = local.small_package_id
      resource_configurations {
        amount        = 20
        resource_type = "disk"
        resource_unit = "Gi"
      }
    }

    database_configuration {
      collection {
        replication_factor = 1
      }
    }
  }
}

output "cluster_url" {
  value = vdb_accounts_cluster.example.url
}
