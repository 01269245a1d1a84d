# Every sec_integration_inline_scanner the provider's credentials can see.
list "sec_integration_inline_scanner" "all" {
  provider = sec
}
