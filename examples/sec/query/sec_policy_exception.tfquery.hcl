# The exceptions of one policy (the API lists them per policy).
list "sec_policy_exception" "buckets" {
  provider = sec

  config {
    policy_id = "acme-buckets"
  }
}
