terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "cluster_audit_private_key" {
  description = "Private key (PEM) of the service-account key. Pass the real one with TF_VAR_cluster_audit_private_key; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "-----BEGIN PRIVATE KEY-----\nplaceholder\n-----END PRIVATE KEY-----\n"
}

variable "cluster_audit_private_key_id" {
  description = "Id of the service-account key. Pass the real one with TF_VAR_cluster_audit_private_key_id; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-key-id"
}

# Audit logs of the managed Kubernetes clusters of a whole CloudB organisation.
resource "sec_integration_cloud_b_gke_audit_log" "example" {
  name             = "example-cloud-b-gke-audit-log"
  integration_type = "ORGANIZATION"
  organization_id  = "123456789012"
  project_id       = "acme-security"
  subscription     = "projects/acme-security/subscriptions/sec-cluster-audit"

  credentials {
    client_id      = "109876543210987654321"
    client_email   = "sec-platform@acme-security.iam.cloud-b.example"
    private_key_id = var.cluster_audit_private_key_id
    private_key    = var.cluster_audit_private_key
  }
}
