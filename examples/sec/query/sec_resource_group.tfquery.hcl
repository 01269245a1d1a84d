# Every sec_resource_group the provider's credentials can see.
list "sec_resource_group" "all" {
  provider = sec
}
