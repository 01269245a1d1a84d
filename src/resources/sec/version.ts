/** The sec provider's version: what Terraform is told, the user agent, and each metric's provider version. */
export const SEC_VERSION = '2.2.0';
