terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# The API key, URL and default account come from VDB_API_KEY, VDB_API_URL and VDB_ACCOUNT_ID.
provider "vdb" {}

# A Kubernetes cluster of yours that the platform may run database clusters in. Run the bootstrap
# commands against that cluster to install the platform's agent; raise bootstrap_commands_version
# to rotate the credentials inside them.
resource "vdb_accounts_hybrid_cloud_environment" "example" {
  name = "example-hybrid"

  configuration {
    namespace              = "vdb-system"
    log_level              = "HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_INFO"
    http_proxy_url         = "http://proxy.internal:3128"
    no_proxy_configs       = ["localhost", ".svc.cluster.local"]
    database_storage_class = "fast-ssd"

    advanced_operator_settings = <<-YAML
      operator:
        watch_all_namespaces: false
    YAML

    node_selector {
      key   = "node-role.kubernetes.io/control-plane"
      value = "true"
    }
  }
}

output "bootstrap_commands" {
  value     = vdb_accounts_hybrid_cloud_environment.example.bootstrap_commands
  sensitive = true
}
