# Every sec_data_export_rule the provider's credentials can see.
list "sec_data_export_rule" "all" {
  provider = sec
}
