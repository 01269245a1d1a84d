terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# API key, URL and account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
# Terraform 1.14 and later: `terraform query` runs every *.tfquery.hcl file of this directory;
# `terraform query -generate-config-out=generated.tf` writes a resource and an import block for each result.
provider "vdb" {}
