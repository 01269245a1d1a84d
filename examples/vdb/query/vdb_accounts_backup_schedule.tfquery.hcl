# The backup schedules of one cluster, each with the whole object.
list "vdb_accounts_backup_schedule" "search" {
  provider = vdb

  include_resource = true

  config {
    cluster_id = "5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
  }
}
