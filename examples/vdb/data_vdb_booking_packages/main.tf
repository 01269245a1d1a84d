terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

# The node sizes on offer in a region, e.g. to pick a package for a cluster.
data "vdb_booking_packages" "example" {
  cloud_provider = "aws"
  cloud_region   = "us-east-1"
}

output "package_names" {
  value = [for p in data.vdb_booking_packages.example.packages : p.name]
}
