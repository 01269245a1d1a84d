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

resource "vdb_accounts_cluster" "a" {
  name           = "example-auth-cluster-a"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = local.small_package_id
    }
  }
}

resource "vdb_accounts_cluster" "b" {
  name           = "example-auth-cluster-b"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = local.small_package_id
    }
  }
}

# A legacy (v1) key for existing integrations. Deprecated: new keys should be
# vdb_accounts_database_api_key_v2.
resource "vdb_accounts_auth_key" "example" {
  cluster_ids = [vdb_accounts_cluster.a.id]
}
