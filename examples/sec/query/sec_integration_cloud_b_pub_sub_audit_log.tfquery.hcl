# Every sec_integration_cloud_b_pub_sub_audit_log the provider's credentials can see.
list "sec_integration_cloud_b_pub_sub_audit_log" "all" {
  provider = sec
}
