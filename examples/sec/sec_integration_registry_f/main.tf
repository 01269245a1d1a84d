terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

provider "sec" {}

variable "registry_f_token" {
  description = "Personal access token with permission to read packages. Pass the real one with TF_VAR_registry_f_token; the default only lets the example run."
  type        = string
  sensitive   = true
  default     = "placeholder-token"
}

# Images of the RegistryF package registry, read with a personal access token.
resource "sec_integration_registry_f" "example" {
  name     = "example-registry-f"
  username = "acme-bot"
  password = var.registry_f_token

  limit_num_imgs = 15

  limit_by_label {
    key   = "org.opencontainers.image.vendor"
    value = "acme"
  }
}

output "registry_f_domain" {
  value = sec_integration_registry_f.example.registry_domain
}
