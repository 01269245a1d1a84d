# Every sec_alert_channel_webhook the provider's credentials can see.
list "sec_alert_channel_webhook" "all" {
  provider = sec
}
