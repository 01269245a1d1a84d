# The legacy keys of every cluster in Frankfurt: the API lists keys per cluster, so one list block
# instance per cluster that list.vdb_accounts_cluster.frankfurt (vdb_accounts_cluster.tfquery.hcl) found.
list "vdb_accounts_auth_key" "frankfurt" {
  provider = vdb
  for_each = toset([for cluster in list.vdb_accounts_cluster.frankfurt.data : cluster.identity.id])

  config {
    cluster_id = each.value
  }
}
