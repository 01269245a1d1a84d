# Every sec_integration_cloud_a_cfg the provider's credentials can see.
list "sec_integration_cloud_a_cfg" "all" {
  provider = sec
}
