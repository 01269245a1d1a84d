terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

# A custom role for people who run backups.
resource "vdb_accounts_role" "example" {
  name        = "example-backup-operators"
  description = "Create and restore backups"

  permissions {
    value = "read:clusters"
  }
  permissions {
    value = "read:backups"
  }
  permissions {
    value = "write:backups"
  }
}
