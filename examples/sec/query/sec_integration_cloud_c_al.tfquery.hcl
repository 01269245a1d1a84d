# Every sec_integration_cloud_c_al the provider's credentials can see.
list "sec_integration_cloud_c_al" "all" {
  provider = sec
}
