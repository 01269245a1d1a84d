# Every sec_integration_cloud_c_cfg the provider's credentials can see.
list "sec_integration_cloud_c_cfg" "all" {
  provider = sec
}
