# Every sec_alert_channel_chat the provider's credentials can see.
list "sec_alert_channel_chat" "all" {
  provider = sec
}
