# A search cluster with a read-only database key for its readers. Its tests (tests/*.tftest.hcl) run
# with `terraform test`, against the vdb emulator or with mocked providers: see the README's
# "Testing your modules".
terraform {
  required_version = ">= 1.7"
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

data "vdb_booking_packages" "region" {
  cloud_provider = "aws"
  cloud_region   = var.region
}

locals {
  package_id = one([for p in data.vdb_booking_packages.region.packages : p.id if p.name == var.package])
}

resource "vdb_accounts_cluster" "search" {
  name           = var.name
  cloud_provider = "aws"
  cloud_region   = var.region

  configuration {
    number_of_nodes = var.nodes
    node_configuration {
      package_id = local.package_id
    }
  }
}

resource "vdb_accounts_database_api_key_v2" "readers" {
  cluster_id = vdb_accounts_cluster.search.id
  name       = "${var.name}-readers"

  global_access_rule {
    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
  }
}
