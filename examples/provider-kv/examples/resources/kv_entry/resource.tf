resource "kv_entry" "greeting" {
  key   = provider::kv::key("examples", "greeting")
  value = "hello"
}
