terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_e_password" {
  description = "Password of the registry user. Pass the real one with TF_VAR_registry_e_password; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-password"
}

# Images of a self-hosted registry that speaks the version 2 registry protocol; the registry
# notifies the platform of new images.
resource "sec_integration_registry_e" "example" {
  name            = "example-registry-e"
  registry_domain = "registry.acme.example:5000"
  username        = "scanner"
  password        = var.registry_e_password
  ssl             = true
  notifications   = true

  limit_by_tags = ["release-*"]
}
