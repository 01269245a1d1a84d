# Every sec_alert_channel_on_call the provider's credentials can see.
list "sec_alert_channel_on_call" "all" {
  provider = sec
}
