# The backup schedules of every cluster in Frankfurt (found by list.vdb_accounts_cluster.frankfurt in
# vdb_accounts_cluster.tfquery.hcl), each with the whole object.
list "vdb_accounts_backup_schedule" "frankfurt" {
  provider = vdb
  for_each = toset([for cluster in list.vdb_accounts_cluster.frankfurt.data : cluster.identity.id])

  include_resource = true

  config {
    cluster_id = each.value
  }
}
