terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "gov_trail_secret_access_key" {
  description = "Secret of the access key. Pass the real one with TF_VAR_gov_trail_secret_access_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-gov-trail-secret-access-key"
}

# The activity trail of a CloudA account in the government regions, read from its notification
# queue with an access key.
resource "sec_integration_cloud_a_gov_ct" "example" {
  name       = "example-cloud-a-gov-ct"
  account_id = "123456789012"
  queue_url  = "https://queue.gov.cloud-a.example/123456789012/sec-trail-notifications"

  credentials {
    access_key_id     = "AKIDGOVEXAMPLE0002"
    secret_access_key = var.gov_trail_secret_access_key
  }
}
