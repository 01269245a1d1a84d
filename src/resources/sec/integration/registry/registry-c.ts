import { serviceAccountRegistry } from './service-account.js';

export default serviceAccountRegistry({
  typeName: 'sec_integration_registry_c',
  registryType: 'REGISTRY_C',
  description: 'Assesses the container images of a CloudB container registry (RegistryC), read with a service account.',
  domainDescription: 'The registry host: `gcr.io`, `us.gcr.io`, `eu.gcr.io` or `asia.gcr.io`.',
  // The seed does not count RegistryC's key id as a secret (RegistryB's it does).
  privateKeyIdSensitive: false,
});
