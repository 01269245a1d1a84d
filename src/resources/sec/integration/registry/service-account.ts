/**
 * The service-account credentials of the CloudB registries (RegistryB and RegistryC), which differ
 * only in whether the key id counts as a secret (docs/api/sec.md, "Registry kinds"; the seed's
 * nested types). The platform returns neither the key nor its id, so both keep the prior state's
 * value on read.
 */
import { attr, block } from '@keel/provider-framework';
import type { ContainerRegistryData } from '../../../../clients/sec/container-registries.js';
import {
  containerRegistry,
  imageLimitFields,
  imageLimitsFromApi,
  imageLimitsToApi,
  nonOsPackageSupport,
  unlessBlank,
} from './family.js';
import { sentSecret } from '../../../shared/secrets.js';
import { secRules } from '../../rules.js';

/** The service account of the registry kind `registryType`, whose `data.credentials` it is sent as. */
export function serviceAccountCredentials(options: { privateKeyIdSensitive: boolean; registryType: string }) {
  const field = (name: string) => `ContainerRegistries:${options.registryType}.credentials.${name}`;
  return block.one(
    {
      client_id: attr.string({ required: true, description: 'Client id of the service account.' }),
      client_email: attr.string({
        required: true,
        validate: secRules(field('clientEmail')),
        description: 'E-mail address of the service account.',
      }),
      private_key_id: options.privateKeyIdSensitive
        ? attr.string({
            optional: true,
            sensitive: true,
            writeOnlyTwin: { required: true },
            masked: true,
            description: 'Id of the service account key. The platform never returns it.',
          })
        : attr.string({
            required: true,
            masked: true,
            description: 'Id of the service account key. The platform never returns it.',
          }),
      private_key: attr.string({
        optional: true,
        sensitive: true,
        writeOnlyTwin: { required: true },
        masked: true,
        validate: secRules(field('privateKey')),
        description: 'The service account private key (PEM). The platform never returns it.',
      }),
    },
    { required: true, description: 'The service account the platform reads the registry with.' },
  );
}

interface ServiceAccountModel {
  client_id: string;
  client_email: string;
  private_key_id: string | null;
  private_key: string | null;
}

export const serviceAccountToApi = (c: ServiceAccountModel) => ({
  clientId: c.client_id,
  clientEmail: c.client_email,
  privateKeyId: sentSecret(c.private_key_id),
  privateKey: sentSecret(c.private_key),
});

export const serviceAccountFromApi = (c: ContainerRegistryData<'REGISTRY_B' | 'REGISTRY_C'>['credentials']) => ({
  client_id: c.clientId,
  client_email: c.clientEmail,
  private_key_id: unlessBlank(c.privateKeyId),
  private_key: unlessBlank(c.privateKey),
});

/**
 * A CloudB registry read with a service account: RegistryB and RegistryC differ only in their
 * hosts and in whether the key id counts as a secret.
 */
export function serviceAccountRegistry(spec: {
  typeName: string;
  registryType: 'REGISTRY_B' | 'REGISTRY_C';
  description: string;
  domainDescription: string;
  privateKeyIdSensitive: boolean;
}) {
  return containerRegistry({
    typeName: spec.typeName,
    registryType: spec.registryType,
    description: spec.description,
    fields: {
      registry_domain: attr.string({
        required: true,
        validate: secRules(`ContainerRegistries:${spec.registryType}.registryDomain`),
        description: spec.domainDescription,
      }),
      credentials: serviceAccountCredentials({
        privateKeyIdSensitive: spec.privateKeyIdSensitive,
        registryType: spec.registryType,
      }),
      ...imageLimitFields(spec.registryType),
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
}
