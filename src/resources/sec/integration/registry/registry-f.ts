import { attr } from '@keel/provider-framework';
import { REGISTRY_F_DOMAIN } from '../../../../clients/sec/registry-domains.js';
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
  typeName: 'sec_integration_registry_f',
  registryType: 'REGISTRY_F',
  description:
    'Assesses the container images of the RegistryF package registry, read with a user and a personal access token.',
  fields: {
    username: attr.string({ required: true, description: 'The user with permission to pull the images.' }),
    password: attr.string({
      optional: true,
      sensitive: true,
      writeOnlyTwin: { required: true },
      masked: true,
      description:
        'A personal access token of that user with permission to read packages. The platform never returns it.',
    }),
    ssl: attr.bool({
      optional: true,
      default: true,
      description: 'Whether the platform connects to the registry over TLS.',
    }),
    registry_notifications: attr.bool({
      optional: true,
      default: false,
      description:
        "Whether the platform subscribes to the registry's notifications (assesses new images as they are pushed).",
    }),
    registry_domain: attr.string({
      computed: true,
      description: 'The registry host (fixed for this kind of registry).',
    }),
    ...imageLimitFields('REGISTRY_F'),
    non_os_package_support: nonOsPackageSupport(),
  },
  toData: (m) => ({
    // The registry has one fixed address.
    registryDomain: REGISTRY_F_DOMAIN,
    credentials: { username: m.username, password: sentSecret(m.password), ssl: m.ssl !== false },
    registryNotifications: m.registry_notifications === true,
    ...imageLimitsToApi(m),
    nonOsPackageEval: m.non_os_package_support !== false,
  }),
  fromData: (d, prior) => ({
    username: d.credentials.username,
    password: unlessBlank(d.credentials.password),
    ssl: d.credentials.ssl ?? true,
    registry_notifications: d.registryNotifications ?? false,
    registry_domain: d.registryDomain,
    ...imageLimitsFromApi(d, prior),
    non_os_package_support: d.nonOsPackageEval ?? true,
  }),
});
