# The database API keys of one cluster (their secrets are never listed).
list "vdb_accounts_database_api_key_v2" "search" {
  provider = vdb

  config {
    cluster_id = "5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
  }
}
