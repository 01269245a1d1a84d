import { attr } from '@keel/provider-framework';
import {
  containerRegistry,
  keyValuesFromApi,
  keyValuesToApi,
  limitByLabel,
  limitByTags,
  listFromApi,
  nonOsPackageSupport,
  trimmedList,
  unlessBlank,
} from './family.js';
import { sentSecret } from '../../../shared/secrets.js';

export default containerRegistry({
  typeName: 'sec_integration_registry_e',
  registryType: 'REGISTRY_E',
  description:
    'Assesses the container images of any registry that speaks the RegistryE (version 2) registry ' +
    'protocol, read with a registry user. This kind of integration has no repository or image-count ' +
    'limits.',
  fields: {
    registry_domain: attr.string({
      required: true,
      description: 'The registry host, optionally with a port, e.g. `registry.example.com:5000`.',
    }),
    username: attr.string({ required: true, description: 'A registry user with permission to pull the images.' }),
    password: attr.string({
      optional: true,
      sensitive: true,
      writeOnlyTwin: { required: true },
      masked: true,
      description: 'The password of that user. The platform never returns it.',
    }),
    ssl: attr.bool({
      optional: true,
      default: false,
      description: 'Whether the platform connects to the registry over TLS.',
    }),
    notifications: attr.bool({
      optional: true,
      default: false,
      description:
        "Whether the platform subscribes to the registry's notifications (assesses new images as they are pushed).",
    }),
    limit_by_tags: limitByTags(),
    limit_by_label: limitByLabel('REGISTRY_E'),
    non_os_package_support: nonOsPackageSupport(),
  },
  toData: (m) => ({
    registryDomain: m.registry_domain,
    credentials: { username: m.username, password: sentSecret(m.password), ssl: m.ssl === true },
    registryNotifications: m.notifications === true,
    limitByTag: trimmedList(m.limit_by_tags),
    limitByLabel: keyValuesToApi(m.limit_by_label),
    nonOsPackageEval: m.non_os_package_support !== false,
  }),
  fromData: (d, prior) => ({
    registry_domain: d.registryDomain,
    username: d.credentials.username,
    password: unlessBlank(d.credentials.password),
    ssl: d.credentials.ssl ?? false,
    notifications: d.registryNotifications ?? false,
    limit_by_tags: listFromApi(d.limitByTag, prior?.limit_by_tags),
    limit_by_label: keyValuesFromApi(d.limitByLabel),
    non_os_package_support: d.nonOsPackageEval ?? true,
  }),
});
