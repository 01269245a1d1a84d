# Every sec_integration_registry_a the provider's credentials can see.
list "sec_integration_registry_a" "all" {
  provider = sec
}
