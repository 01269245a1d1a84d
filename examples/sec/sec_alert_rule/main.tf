terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# A custom policy end to end: a query, the policy that evaluates it, an exception for sandbox
# accounts, and an alert rule that sends the policy's critical and high alerts to the security team.

resource "sec_query" "users_without_mfa" {
  query_id = "TF_ACC_Alert_Rule_Users_Without_MFA"
  query    = <<-EOT
    {
      source {
        SEC_CFG_CLOUD_A_IAM_USERS
      }
      filter {
        RESOURCE_CONFIG:MfaActive = 'false'
      }
      return distinct {
        ACCOUNT_ID,
        RESOURCE_KEY,
        RESOURCE_ID
      }
    }
  EOT

  # The platform refuses to delete a query a policy evaluates, and Terraform deletes before it
  # creates by default: with create_before_destroy, a new query_id makes the new query, moves the
  # policies to it, and only then deletes the old one.
  lifecycle {
    create_before_destroy = true
  }
}

resource "sec_policy" "users_without_mfa" {
  title            = "Users without multi-factor authentication"
  query_id         = sec_query.users_without_mfa.id
  description      = "Identity users who can sign in without a second factor"
  remediation      = "Require a second factor for every user who can sign in"
  severity         = "High"
  type             = "Violation"
  policy_id_suffix = "tfaccalertrule"

  alerting {
    profile = "SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation"
  }
}

resource "sec_policy_exception" "sandbox" {
  policy_id   = sec_policy.users_without_mfa.id
  description = "Sandbox accounts have no real users"

  constraint {
    field_key    = "accountIds"
    field_values = ["333333333333"]
  }
}

resource "sec_alert_channel_email" "security" {
  name       = "example-alert-rule-email"
  recipients = ["security@example.com"]
}

resource "sec_alert_rule" "example" {
  name                = "example-alert-rule"
  description         = "Policy alerts from Cloud A for the security team"
  alert_channels      = [sec_alert_channel_email.security.intg_guid]
  severities          = ["Critical", "High"]
  alert_categories    = ["Policy"]
  alert_sources       = ["CloudA"]
  alert_subcategories = ["Compliance", "User", "Cloud Activity"]
}

output "alert_rule_guid" {
  value = sec_alert_rule.example.guid
}
