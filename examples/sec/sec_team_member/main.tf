terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

# A user of the account. With `organization = true` in the provider, add an `organization` block
# to manage an organization-level member instead.
resource "sec_team_member" "example" {
  email      = "example-team-member@example.com"
  first_name = "Ada"
  last_name  = "Lovelace"
  company    = "Example Corp"
}
