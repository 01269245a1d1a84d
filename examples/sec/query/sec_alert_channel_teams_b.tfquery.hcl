# Every sec_alert_channel_teams_b the provider's credentials can see.
list "sec_alert_channel_teams_b" "all" {
  provider = sec
}
