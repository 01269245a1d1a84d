import { attr, validators } from '../../../../schema/define.js';
import { REGISTRY_B_DOMAINS } from '../../../../clients/sec/container-registries.js';
import { containerRegistry, imageLimitFields, imageLimitsFromApi, imageLimitsToApi, nonOsPackageSupport } from './family.js';
import { serviceAccountCredentials, serviceAccountFromApi, serviceAccountToApi } from './service-account.js';

export default containerRegistry({
  typeName: 'sec_integration_registry_b',
  registryType: 'REGISTRY_B',
  description: 'Assesses the container images of a CloudB artifact registry (RegistryB), read with a service account.',
  fields: {
    registry_domain: attr.string({
      required: true,
      validate: [validators.oneOf(...REGISTRY_B_DOMAINS)],
      description: 'The registry host: a regional host such as `us-east1-docker.pkg.dev`, or one of the multi-region hosts `asia-docker.pkg.dev`, `europe-docker.pkg.dev`, `us-docker.pkg.dev`.',
    }),
    credentials: serviceAccountCredentials({ privateKeyIdSensitive: true }),
    ...imageLimitFields(),
    non_os_package_support: nonOsPackageSupport(),
  },
  toData: (m) => ({
    registryDomain: m.registry_domain,
    credentials: serviceAccountToApi(m.credentials[0]!),
    ...imageLimitsToApi(m),
    nonOsPackageEval: m.non_os_package_support !== false,
  }),
  fromData: (d, prior) => ({
    registry_domain: d.registryDomain,
    credentials: [serviceAccountFromApi(d.credentials)],
    ...imageLimitsFromApi(d, prior),
    non_os_package_support: d.nonOsPackageEval ?? true,
  }),
});
