terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

resource "vdb_accounts_role" "viewer" {
  name = "tf-acc-viewers"
  permissions {
    value = "read:clusters"
  }
}

resource "vdb_accounts_role" "backups" {
  name = "tf-acc-backup-viewers"
  permissions {
    value = "read:backups"
  }
}

# Gives an account member the custom roles; roles the member has from elsewhere are left alone.
resource "vdb_accounts_user_roles" "example" {
  user_email = "member@vdb-emulator.example"
  role_ids   = [vdb_accounts_role.viewer.id]
}
