# What the released provider is tried with (`npm run release`, then `terraform init` from its mirror:
# README.md, "Releasing it"). The full source address serves Terraform and OpenTofu alike.
terraform {
  required_providers {
    kv = { source = "registry.terraform.io/acme/kv" }
  }
}

variable "store" {
  description = "The JSON file that holds the store."
  type        = string
  default     = "store.json"
}

provider "kv" {
  path = var.store
}

resource "kv_entry" "greeting" {
  key   = provider::kv::key("examples", "greeting")
  value = "hello"
}

output "greeting_version" {
  value = kv_entry.greeting.version
}
