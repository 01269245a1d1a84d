terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "chat_webhook_url" {
  description = "Incoming webhook URL of the chat channel; it carries the channel's secret. Pass the real one with TF_VAR_chat_webhook_url; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "https://chat.example/services/T0000/B0000/security-1"
}

# Alerts posted to a dedicated chat channel through its incoming webhook.
resource "sec_alert_channel_chat" "example" {
  name        = "example-chat"
  webhook_url = var.chat_webhook_url
}
