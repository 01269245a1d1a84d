# The custom roles of the provider's account; `account_id` in `config` lists another account's.
list "vdb_accounts_role" "custom" {
  provider = vdb
}
