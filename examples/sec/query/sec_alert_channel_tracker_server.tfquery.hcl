# Every sec_alert_channel_tracker_server the provider's credentials can see.
list "sec_alert_channel_tracker_server" "all" {
  provider = sec
}
