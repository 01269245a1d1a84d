# Every sec_integration_registry_c the provider's credentials can see.
list "sec_integration_registry_c" "all" {
  provider = sec
}
