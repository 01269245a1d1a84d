# Every sec_query the provider's credentials can see.
list "sec_query" "all" {
  provider = sec
}
