# The store is a JSON file; the provider makes it when it is missing.
provider "kv" {
  path = "store.json"
}
