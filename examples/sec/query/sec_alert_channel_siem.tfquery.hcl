# Every sec_alert_channel_siem the provider's credentials can see.
list "sec_alert_channel_siem" "all" {
  provider = sec
}
