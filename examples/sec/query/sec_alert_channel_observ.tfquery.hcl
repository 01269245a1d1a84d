# Every sec_alert_channel_observ the provider's credentials can see.
list "sec_alert_channel_observ" "all" {
  provider = sec
}
