output "cluster_id" {
  description = "The cluster's id."
  value       = vdb_accounts_cluster.search.id
}

output "url" {
  description = "The cluster's endpoint."
  value       = vdb_accounts_cluster.search.url
}

output "reader_key" {
  description = "The read-only database key."
  value       = vdb_accounts_database_api_key_v2.readers.key
  sensitive   = true
}
