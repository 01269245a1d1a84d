# Every sec_integration_cloud_c_dspm the provider's credentials can see.
list "sec_integration_cloud_c_dspm" "all" {
  provider = sec
}
