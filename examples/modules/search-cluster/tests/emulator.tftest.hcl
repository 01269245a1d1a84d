# Runs against the vdb emulator (or a real account): VDB_API_URL, VDB_API_KEY and VDB_ACCOUNT_ID in
# the environment. The run applies (the apply waits until the cluster is healthy); `terraform test`
# destroys everything at the end.
variables {
  name = "module-test-search"
}

run "makes_a_healthy_cluster_with_a_reader_key" {
  assert {
    condition     = output.url != ""
    error_message = "The cluster has an endpoint once it is healthy."
  }
  assert {
    condition     = vdb_accounts_database_api_key_v2.readers.cluster_id == output.cluster_id
    error_message = "The key belongs to the cluster."
  }
  assert {
    condition     = length(nonsensitive(output.reader_key)) > 0
    error_message = "The key's secret is given once, at its creation."
  }
}
