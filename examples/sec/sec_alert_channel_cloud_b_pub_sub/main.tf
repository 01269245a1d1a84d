terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "pub_sub_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_pub_sub_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

variable "pub_sub_private_key_id" {
  description = "Id of the service-account key. Pass the real one with TF_VAR_pub_sub_private_key_id; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-key-id"
}

# Alerts published to a CloudB pub/sub topic with a service-account key.
resource "sec_alert_channel_cloud_b_pub_sub" "example" {
  name           = "example-cloud-b-pub-sub"
  project_id     = "acme-security"
  topic_id       = "platform-alerts"
  issue_grouping = "Events"

  credentials {
    client_email   = "alerts@acme-security.iam.cloud-b.example"
    client_id      = "109876543210987654321"
    private_key    = var.pub_sub_private_key
    private_key_id = var.pub_sub_private_key_id
  }
}
