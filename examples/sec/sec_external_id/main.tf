terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# An external id in the platform's format for the role the platform assumes in a Cloud A account:
# "seceid:cloud_a:v2:<platform account>:123456789012:<10 random characters>".
resource "sec_external_id" "example" {
  csp        = "cloud_a"
  account_id = "123456789012"
}

# The integration that assumes the role, with the same external id.
resource "sec_integration_cloud_a_cfg" "config" {
  name = "example-external-id-cfg"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-external-id"
    external_id = sec_external_id.example.v2
  }
}

output "external_id" {
  value = sec_external_id.example.v2
}
