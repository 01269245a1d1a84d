import { attr, validators } from '../../../../schema/define.js';
import { REGISTRY_C_DOMAINS } from '../../../../clients/sec/container-registries.js';
import { containerRegistry, imageLimitFields, imageLimitsFromApi, imageLimitsToApi, nonOsPackageSupport } from './family.js';
import { serviceAccountCredentials, serviceAccountFromApi, serviceAccountToApi } from './service-account.js';

export default containerRegistry({
  typeName: 'sec_integration_registry_c',
  registryType: 'REGISTRY_C',
  description: 'Assesses the container images of a CloudB container registry (RegistryC), read with a service account.',
  fields: {
    registry_domain: attr.string({
      required: true,
      validate: [validators.oneOf(...REGISTRY_C_DOMAINS)],
      description: 'The registry host: `gcr.io`, `us.gcr.io`, `eu.gcr.io` or `asia.gcr.io`.',
    }),
    credentials: serviceAccountCredentials({ privateKeyIdSensitive: false }),
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
