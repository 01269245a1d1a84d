# Every sec_integration_cloud_d_cfg the provider's credentials can see.
list "sec_integration_cloud_d_cfg" "all" {
  provider = sec
}
