# Every sec_alert_channel_cloud_b_pub_sub the provider's credentials can see.
list "sec_alert_channel_cloud_b_pub_sub" "all" {
  provider = sec
}
