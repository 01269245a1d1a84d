# Every sec_integration_registry_d the provider's credentials can see.
list "sec_integration_registry_d" "all" {
  provider = sec
}
