# Every sec_integration_registry_f the provider's credentials can see.
list "sec_integration_registry_f" "all" {
  provider = sec
}
