# The first 20 e-mail alert channels.
list "sec_alert_channel_email" "first" {
  provider = sec

  limit = 20
}
