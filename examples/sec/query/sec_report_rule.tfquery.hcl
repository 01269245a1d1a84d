# Every sec_report_rule the provider's credentials can see.
list "sec_report_rule" "all" {
  provider = sec
}
