terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# Alerts to a SIEM listener that presents a self-signed certificate.
resource "sec_alert_channel_siem" "example" {
  name               = "example-siem"
  host_url           = "siem.acme.example"
  host_port          = 8443
  communication_type = "HTTPS Self Signed Cert"
}
