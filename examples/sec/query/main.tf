terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Account, API key and secret come from SEC_ACCOUNT, SEC_API_KEY and SEC_API_SECRET.
# Terraform 1.14 and later: `terraform query` runs every *.tfquery.hcl file of this directory;
# `terraform query -generate-config-out=generated.tf` writes a resource and an import block for each result.
provider "sec" {}
