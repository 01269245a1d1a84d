variable "team" {
  description = "The team's short name: lower-case letters, digits and hyphens."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,30}$", var.team))
    error_message = "team must be 2 to 31 lower-case letters, digits or hyphens, starting with a letter."
  }
}

variable "recipients" {
  description = "The addresses the team's alerts go to."
  type        = list(string)
}

variable "severities" {
  description = "The severities the team handles: Critical, High, Medium, Low or Info."
  type        = list(string)
  default     = ["Critical", "High"]
}
