# Every vdb_accounts_hybrid_cloud_environment the provider's credentials can see.
list "vdb_accounts_hybrid_cloud_environment" "all" {
  provider = vdb
}
