terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "pub_sub_audit_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_pub_sub_audit_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

variable "pub_sub_audit_private_key_id" {
  description = "Id of the service-account key. Pass the real one with TF_VAR_pub_sub_audit_private_key_id; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-key-id"
}

# Audit logs of a CloudB project through a pub/sub topic and subscription.
resource "sec_integration_cloud_b_pub_sub_audit_log" "example" {
  name             = "example-cloud-b-pub-sub-audit-log"
  integration_type = "PROJECT"
  project_id       = "acme-security"
  topic_id         = "sec-audit-log"
  subscription_id  = "sec-audit-log-platform"

  credentials {
    client_id      = "109876543210987654321"
    client_email   = "sec-platform@acme-security.iam.cloud-b.example"
    private_key_id = var.pub_sub_audit_private_key_id
    private_key    = var.pub_sub_audit_private_key
  }
}
