# Every sec_policy_compliance the provider's credentials can see.
list "sec_policy_compliance" "all" {
  provider = sec
}
