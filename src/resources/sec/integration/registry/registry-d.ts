import { attr } from '@keel/provider-framework';
import { REGISTRY_D_DOMAIN } from '../../../../clients/sec/registry-domains.js';
import {
  containerRegistry,
  imageLimitFields,
  imageLimitsFromApi,
  imageLimitsToApi,
  nonOsPackageSupport,
  unlessBlank,
} from './family.js';
import { sentSecret } from '../../../shared/secrets.js';

export default containerRegistry({
  typeName: 'sec_integration_registry_d',
  registryType: 'REGISTRY_D',
  description: 'Assesses the container images of a RegistryD hub account, read with a hub user.',
  fields: {
    username: attr.string({
      required: true,
      description: 'A hub user with at least read-only access to the repositories.',
    }),
    password: attr.string({
      optional: true,
      sensitive: true,
      writeOnlyTwin: { required: true },
      masked: true,
      description: 'The password of that user. The platform never returns it.',
    }),
    ...imageLimitFields('REGISTRY_D'),
    non_os_package_support: nonOsPackageSupport(),
  },
  toData: (m) => ({
    // The hub has one fixed address.
    registryDomain: REGISTRY_D_DOMAIN,
    credentials: { username: m.username, password: sentSecret(m.password) },
    ...imageLimitsToApi(m),
    nonOsPackageEval: m.non_os_package_support !== false,
  }),
  fromData: (d, prior) => ({
    username: d.credentials.username,
    password: unlessBlank(d.credentials.password),
    ...imageLimitsFromApi(d, prior),
    non_os_package_support: d.nonOsPackageEval ?? true,
  }),
});
