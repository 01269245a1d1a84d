terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# Where a database client connects, by gRPC and by REST, from the cluster's URL (vdb_accounts_cluster's `url`).
variable "cluster_url" {
  type    = string
  default = "https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example"
}

output "grpc_endpoint" {
  value = provider::vdb::cluster_endpoint(var.cluster_url, "grpc")
}

output "rest_endpoint" {
  value = provider::vdb::cluster_endpoint(var.cluster_url, "rest")
}
