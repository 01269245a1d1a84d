# No emulator and no credentials: the provider is mocked (Terraform still starts it once, for its
# schema, and it still validates the configuration). Mocked resources get made-up values for what the
# platform computes, unless given here: ids that another resource refers to must be in the
# platform's form (a UUID), as the provider checks them.
mock_provider "vdb" {
  mock_data "vdb_booking_packages" {
    defaults = {
      packages = [
        { id = "7d4f0c9a-1b2e-4c3d-8e5f-6a7b8c9d0e1f", name = "small" },
        { id = "2b8e6f1d-3c4a-4e5b-9f6a-7c8d9e0f1a2b", name = "large" },
      ]
    }
  }
  mock_resource "vdb_accounts_cluster" {
    defaults = {
      id  = "5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"
      url = "https://search.eu-central-1.aws.vdb.example"
    }
  }
}

variables {
  name = "search"
}

run "picks_the_package_by_name" {
  command = plan
  variables {
    package = "large"
  }
  assert {
    condition     = vdb_accounts_cluster.search.configuration[0].node_configuration[0].package_id == "2b8e6f1d-3c4a-4e5b-9f6a-7c8d9e0f1a2b"
    error_message = "The nodes get the package named."
  }
}

run "gives_readers_a_read_only_key" {
  assert {
    condition     = vdb_accounts_database_api_key_v2.readers.global_access_rule[0].access_type == "GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"
    error_message = "The readers' key is read-only."
  }
  assert {
    condition     = output.url == "https://search.eu-central-1.aws.vdb.example"
    error_message = "The module gives the cluster's endpoint."
  }
}

run "refuses_two_nodes" {
  command = plan
  variables {
    nodes = 2
  }
  expect_failures = [var.nodes]
}
