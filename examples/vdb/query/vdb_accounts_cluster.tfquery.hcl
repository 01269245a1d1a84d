# The clusters in one region of one cloud provider, in the provider's account.
list "vdb_accounts_cluster" "frankfurt" {
  provider = vdb

  config {
    cloud_provider = "aws"
    cloud_region   = "eu-central-1"
  }
}
