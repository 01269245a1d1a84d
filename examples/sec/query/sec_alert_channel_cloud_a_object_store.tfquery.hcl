# Every sec_alert_channel_cloud_a_object_store the provider's credentials can see.
list "sec_alert_channel_cloud_a_object_store" "all" {
  provider = sec
}
