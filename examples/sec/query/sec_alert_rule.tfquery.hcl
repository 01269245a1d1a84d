# Every sec_alert_rule the provider's credentials can see.
list "sec_alert_rule" "all" {
  provider = sec
}
