# Actions need Terraform 1.14 or later.
terraform {
  required_version = ">= 1.14"
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Credentials come from SEC_ACCOUNT, SEC_API_KEY and SEC_API_SECRET.
provider "sec" {}

variable "ops_hook" {
  description = "The ops team's webhook URL; it may carry a secret. Pass the real one with TF_VAR_ops_hook; the default only lets the example run."
  type        = string
  sensitive   = true
  ephemeral   = true
  default     = "https://hooks.acme.example/ops/alerts"
}

resource "sec_alert_channel_webhook" "ops" {
  name                   = "ops"
  webhook_url_wo         = var.ops_hook
  webhook_url_wo_version = 1

  lifecycle {
    # A new webhook URL is tried at once: a test alert after every change of the channel.
    action_trigger {
      events  = [after_update]
      actions = [action.sec_alert_channel_test.ops]
    }
  }
}

# Also on demand: terraform apply -invoke=action.sec_alert_channel_test.ops
action "sec_alert_channel_test" "ops" {
  config {
    channel_id = sec_alert_channel_webhook.ops.id
  }
}
