output "key" {
  value = provider::kv::key("team", "db") # "team/db"
}
