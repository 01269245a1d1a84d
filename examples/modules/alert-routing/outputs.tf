output "channel_id" {
  description = "The e-mail channel's GUID, for other rules."
  value       = sec_alert_channel_email.team.id
}

output "rule_id" {
  description = "The alert rule's GUID."
  value       = sec_alert_rule.team.id
}
