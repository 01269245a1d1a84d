# Every sec_integration_cloud_b_at the provider's credentials can see.
list "sec_integration_cloud_b_at" "all" {
  provider = sec
}
