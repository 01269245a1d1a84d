# The custom roles of another account than the provider's.
list "vdb_accounts_role" "partner" {
  provider = vdb

  config {
    account_id = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
  }
}
