# The exceptions of one policy, here the built-in platform-global-73 (the API lists them per policy).
list "sec_policy_exception" "global_73" {
  provider = sec

  config {
    policy_id = "platform-global-73"
  }
}
