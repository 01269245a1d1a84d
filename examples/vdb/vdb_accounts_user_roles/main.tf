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
  name = "example-viewers"
  permissions {
    value = "read:clusters"
  }
}

resource "vdb_accounts_role" "backups" {
  name = "example-backup-viewers"
  permissions {
    value = "read:backups"
  }
}

# Gives an account member the custom roles it names that the member lacks. Destroying it, or removing
# a role from role_ids, takes back only the roles it granted: what the member already had (the Base
# role, roles given in the console or by another vdb_accounts_user_roles) stays. Name each role for a
# member in one resource: when two name the same one, it belongs to the resource that assigned it
# first, and goes when that resource goes (the other assigns it again at its next apply).
resource "vdb_accounts_user_roles" "example" {
  user_email = "member@vdb-emulator.example"
  role_ids   = [vdb_accounts_role.viewer.id]
}
