// Registry hosts the resource definitions need at start-up, apart from the client's zod schemas
// (./container-registries.ts), which load only once the provider is configured: sec's contract's lists.
export {
  REGISTRY_B_DOMAINS,
  REGISTRY_C_DOMAINS,
  REGISTRY_D_DOMAIN,
  REGISTRY_F_DOMAIN,
} from '../../wire/sec-contract/container-registries.js';
