# Every sec_alert_channel_tracker_cloud the provider's credentials can see.
list "sec_alert_channel_tracker_cloud" "all" {
  provider = sec
}
