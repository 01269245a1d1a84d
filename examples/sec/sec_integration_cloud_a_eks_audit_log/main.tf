terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Audit logs of the managed Kubernetes clusters of a CloudA account: delivered to a bucket, each new
# file announced on a notification topic.
resource "sec_integration_cloud_a_eks_audit_log" "example" {
  name       = "example-cloud-a-eks-audit-log"
  topic_arn  = "arn:cloud-a:notifications:us-east-1:123456789012:sec-cluster-audit"
  bucket_arn = "arn:cloud-a:storage:::acme-cluster-audit-logs"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-cluster-audit"
    external_id = "sec-7f3c2a"
  }
}
