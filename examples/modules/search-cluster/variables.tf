variable "name" {
  description = "The cluster's name."
  type        = string
}

variable "region" {
  description = "The AWS region of the cluster."
  type        = string
  default     = "eu-central-1"
}

variable "package" {
  description = "The booking package of each node, by name (small, medium, large)."
  type        = string
  default     = "small"
}

variable "nodes" {
  description = "How many nodes: 1, or 3 and more for replication."
  type        = number
  default     = 1

  validation {
    condition     = var.nodes == 1 || var.nodes >= 3
    error_message = "nodes must be 1, or 3 or more: two nodes cannot keep a quorum."
  }
}
