# Every sec_integration_registry_e the provider's credentials can see.
list "sec_integration_registry_e" "all" {
  provider = sec
}
