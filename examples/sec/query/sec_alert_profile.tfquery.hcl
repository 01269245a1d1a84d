# Every sec_alert_profile the provider's credentials can see.
list "sec_alert_profile" "all" {
  provider = sec
}
