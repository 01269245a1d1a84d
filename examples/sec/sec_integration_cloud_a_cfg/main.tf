terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# The platform assesses the configuration of one CloudA account through a cross-account role.
resource "sec_integration_cloud_a_cfg" "example" {
  name = "example-cloud-a-cfg"

  credentials {
    role_arn    = "arn:cloud-a:iam::123456789012:role/sec-platform-audit"
    external_id = "sec-7f3c2a"
  }
}

output "cloud_a_cfg_guid" {
  value = sec_integration_cloud_a_cfg.example.intg_guid
}
