# The database API keys of every cluster in Frankfurt (found by list.vdb_accounts_cluster.frankfurt in
# vdb_accounts_cluster.tfquery.hcl); their secrets are never listed.
list "vdb_accounts_database_api_key_v2" "frankfurt" {
  provider = vdb
  for_each = toset([for cluster in list.vdb_accounts_cluster.frankfurt.data : cluster.identity.id])

  config {
    cluster_id = each.value
  }
}
