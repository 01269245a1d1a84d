# Every sec_integration_cloud_c_agentless_scanning the provider's credentials can see.
list "sec_integration_cloud_c_agentless_scanning" "all" {
  provider = sec
}
