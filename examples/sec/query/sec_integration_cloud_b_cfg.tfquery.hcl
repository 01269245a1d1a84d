# Every sec_integration_cloud_b_cfg the provider's credentials can see.
list "sec_integration_cloud_b_cfg" "all" {
  provider = sec
}
