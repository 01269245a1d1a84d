# Every sec_integration_cloud_b_gke_audit_log the provider's credentials can see.
list "sec_integration_cloud_b_gke_audit_log" "all" {
  provider = sec
}
