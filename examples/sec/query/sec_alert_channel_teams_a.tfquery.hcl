# Every sec_alert_channel_teams_a the provider's credentials can see.
list "sec_alert_channel_teams_a" "all" {
  provider = sec
}
