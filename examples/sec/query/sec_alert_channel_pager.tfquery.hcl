# Every sec_alert_channel_pager the provider's credentials can see.
list "sec_alert_channel_pager" "all" {
  provider = sec
}
