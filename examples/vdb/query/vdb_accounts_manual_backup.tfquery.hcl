# Every vdb_accounts_manual_backup the provider's credentials can see.
list "vdb_accounts_manual_backup" "all" {
  provider = vdb
}
