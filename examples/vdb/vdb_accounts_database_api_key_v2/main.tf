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
  name           = "example-key-cluster"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"

  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = local.small_package_id
    }
  }
}

# A key that may read one collection and write another; it never expires. The secret is only
# returned when the key is created, so keep it in a secret store.
resource "vdb_accounts_database_api_key_v2" "example" {
  cluster_id = vdb_accounts_cluster.cluster.id
  name       = "example-key"

  collection_access_rules {
    collection_name = "documents"
    access_type     = "COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
  }
  collection_access_rules {
    collection_name = "feedback"
    access_type     = "COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE"
  }
}

output "database_api_key" {
  value     = vdb_accounts_database_api_key_v2.example.key
  sensitive = true
}
