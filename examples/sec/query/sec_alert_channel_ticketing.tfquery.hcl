# Every sec_alert_channel_ticketing the provider's credentials can see.
list "sec_alert_channel_ticketing" "all" {
  provider = sec
}
