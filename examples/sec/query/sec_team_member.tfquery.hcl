# Every team member, each with the whole object (for -generate-config-out, or to read its settings).
list "sec_team_member" "all" {
  provider = sec

  include_resource = true
}
