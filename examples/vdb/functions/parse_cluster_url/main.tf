terraform {
  required_providers {
    vdb = {
      source = "keel/vdb"
    }
  }
}

# A cluster known only by its URL (another configuration's output, a variable): its id, region and cloud.
locals {
  cluster = provider::vdb::parse_cluster_url("https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example")
}

output "cluster_id" {
  value = local.cluster.id
}

output "cluster_region" {
  value = "${local.cluster.cloud}/${local.cluster.region}"
}
