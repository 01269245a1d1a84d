# Every sec_alert_channel_log_sink the provider's credentials can see.
list "sec_alert_channel_log_sink" "all" {
  provider = sec
}
