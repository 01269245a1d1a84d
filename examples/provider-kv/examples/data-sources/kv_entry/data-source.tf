data "kv_entry" "greeting" {
  key = "examples/greeting"
}
