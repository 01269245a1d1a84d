# Every sec_integration_proxy_scanner the provider's credentials can see.
list "sec_integration_proxy_scanner" "all" {
  provider = sec
}
