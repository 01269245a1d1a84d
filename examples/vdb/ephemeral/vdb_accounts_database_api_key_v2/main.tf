terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

variable "cluster_id" {
  type        = string
  description = "The cluster to smoke-test."
}

# A read-only key that exists only while Terraform runs (and expires after two hours in any case).
ephemeral "vdb_accounts_database_api_key_v2" "smoke" {
  cluster_id = var.cluster_id
  expires_in = "2h"
  global_access_rule {
    access_type = "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
  }
}

data "vdb_accounts_cluster" "target" {
  id = var.cluster_id
}

# A smoke test in the same run: the key reaches the command through its environment, never the state.
resource "terraform_data" "smoke_test" {
  triggers_replace = [var.cluster_id]

  provisioner "local-exec" {
    command     = "curl --fail --silent --header \"api-key: $DATABASE_API_KEY\" \"$CLUSTER_URL/collections\""
    environment = {
      DATABASE_API_KEY = ephemeral.vdb_accounts_database_api_key_v2.smoke.key
      CLUSTER_URL      = data.vdb_accounts_cluster.target.url
    }
  }
}
