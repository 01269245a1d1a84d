/** The vdb provider's version: what Terraform is told and the user agent. */
export const VDB_VERSION = '1.19.2';
