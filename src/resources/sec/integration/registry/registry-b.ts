import { serviceAccountRegistry } from './service-account.js';

export default serviceAccountRegistry({
  typeName: 'sec_integration_registry_b',
  registryType: 'REGISTRY_B',
  description: 'Assesses the container images of a CloudB artifact registry (RegistryB), read with a service account.',
  domainDescription:
    'The registry host: a regional host such as `us-east1-docker.pkg.dev`, or one of the multi-region ' +
    'hosts `asia-docker.pkg.dev`, `europe-docker.pkg.dev`, `us-docker.pkg.dev`.',
  privateKeyIdSensitive: true,
});
