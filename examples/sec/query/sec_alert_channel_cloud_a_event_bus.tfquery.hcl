# Every sec_alert_channel_cloud_a_event_bus the provider's credentials can see.
list "sec_alert_channel_cloud_a_event_bus" "all" {
  provider = sec
}
