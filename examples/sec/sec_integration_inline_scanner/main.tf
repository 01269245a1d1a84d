terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# An inline scanner for the build pipelines; results are tagged with the pipeline that produced them.
resource "sec_integration_inline_scanner" "example" {
  name           = "example-inline-scanner"
  limit_num_scan = 60

  identifier_tag {
    key   = "pipeline"
    value = "build"
  }
}

output "inline_scanner_token" {
  value     = sec_integration_inline_scanner.example.server_token
  sensitive = true
}
