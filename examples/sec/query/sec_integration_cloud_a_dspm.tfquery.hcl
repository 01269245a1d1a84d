# Every sec_integration_cloud_a_dspm the provider's credentials can see.
list "sec_integration_cloud_a_dspm" "all" {
  provider = sec
}
