# Every sec_integration_registry_b the provider's credentials can see.
list "sec_integration_registry_b" "all" {
  provider = sec
}
