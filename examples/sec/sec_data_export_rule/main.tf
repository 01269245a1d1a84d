terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Data is exported to object-store alert channels only.
resource "sec_alert_channel_cloud_a_object_store" "exports" {
  name       = "example-data-export-rule-bucket"
  bucket_arn = "arn:cloud-a:s3:::acme-security-data-exports"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-data-export"
    external_id = "acme-sec-data-export-1"
  }
}

resource "sec_data_export_rule" "example" {
  name            = "example-data-export-rule"
  description     = "Everything, to the security data lake"
  integration_ids = [sec_alert_channel_cloud_a_object_store.exports.intg_guid]
}
