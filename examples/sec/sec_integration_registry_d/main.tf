terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_d_password" {
  description = "Password of the hub user. Pass the real one with TF_VAR_registry_d_password; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-password"
}

# Images of a RegistryD hub organisation, read with a read-only hub user.
resource "sec_integration_registry_d" "example" {
  name     = "example-registry-d"
  username = "acme-reader"
  password = var.registry_d_password

  limit_by_repositories = ["acme/api"]
  limit_num_imgs        = 5
}
