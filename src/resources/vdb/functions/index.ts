/**
 * The vdb provider's functions (`provider::vdb::<name>(…)`), one file each and one line here; the
 * provider takes every export of this module (ARCHITECTURE.md, "A function").
 */
export { default as clusterEndpoint } from './cluster-endpoint.js';
export { default as parseClusterUrl } from './parse-cluster-url.js';
