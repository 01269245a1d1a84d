terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alert templates for a custom object-store policy, on top of the built-in Cloud A configuration
# profile. Templates may use the fields of the profile they extend, written as {{FIELD}}; policies
# name a template as "<profile>.<template>", here "TF_ACC_ALERT_PROFILE.BucketExposed".
resource "sec_alert_profile" "example" {
  name    = "TF_ACC_ALERT_PROFILE"
  extends = "SEC_CFG_CLOUD_A_DEFAULT_PROFILE"

  alert {
    name        = "BucketExposed"
    event_name  = "Bucket exposed"
    subject     = "{{_OCCURRENCE}} in account {{ACCOUNT_ID}}"
    description = "Bucket {{RESOURCE_ID}} in {{RESOURCE_REGION}} can be read by anyone."
  }
}

output "alert_profile_fields" {
  value = sec_alert_profile.example.fields
}
