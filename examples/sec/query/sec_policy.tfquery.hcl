# Every sec_policy the provider's credentials can see.
list "sec_policy" "all" {
  provider = sec
}
