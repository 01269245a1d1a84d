terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts go to the default event bus of a CloudA account, one bus event per compliance event type.
resource "sec_alert_channel_cloud_a_event_bus" "example" {
  name            = "example-cloud-a-event-bus"
  event_bus_arn   = "arn:cloud-a:events:us-west-2:123456789012:event-bus/default"
  group_issues_by = "Events"
}
