terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# A proxy scanner that assesses the newest images of the payments repositories. The scanner
# authenticates with the issued server token.
resource "sec_integration_proxy_scanner" "example" {
  name = "example-proxy-scanner"

  limit_by_repositories = ["payments/api", "payments/ledger"]
  limit_num_imgs        = 10

  limit_by_label {
    key   = "env"
    value = "prod"
  }
}

output "proxy_scanner_token" {
  value     = sec_integration_proxy_scanner.example.server_token
  sensitive = true
}
