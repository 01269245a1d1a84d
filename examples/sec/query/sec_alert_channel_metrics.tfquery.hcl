# Every sec_alert_channel_metrics the provider's credentials can see.
list "sec_alert_channel_metrics" "all" {
  provider = sec
}
