terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Hourly data export to an existing bucket, written through a cross-account role.
resource "sec_alert_channel_cloud_a_object_store" "example" {
  name       = "example-cloud-a-object-store"
  bucket_arn = "arn:cloud-a:s3:::acme-security-exports"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-export"
    external_id = "acme-sec-export-1"
  }
}
