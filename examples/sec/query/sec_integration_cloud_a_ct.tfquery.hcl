# Every sec_integration_cloud_a_ct the provider's credentials can see.
list "sec_integration_cloud_a_ct" "all" {
  provider = sec
}
