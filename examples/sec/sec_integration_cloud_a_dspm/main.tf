terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Data security posture management in one CloudA account, scanning two regions.
resource "sec_integration_cloud_a_dspm" "example" {
  name               = "example-cloud-a-dspm"
  account_id         = "123456789012"
  storage_bucket_arn = "arn:cloud-a:storage:::acme-dspm-results"
  regions            = ["us-east-1", "eu-west-1"]

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-dspm"
    external_id = "sec-7f3c2a"
  }
}
