import { attr, attrStep, block, DiagnosticError, indexStep, type ModelOf } from '@keel/provider-framework';
import type { RegistryAAuthType } from '../../../../clients/sec/container-registries.js';
import {
  containerRegistry,
  imageLimitFields,
  imageLimitsFromApi,
  imageLimitsToApi,
  nonOsPackageSupport,
  unlessBlank,
} from './family.js';
import { sentSecret } from '../../../shared/secrets.js';
import { checkedBy } from '../../rules.js';

const credentialFields = {
  role_arn: attr.string({
    optional: true,
    description:
      'Role authentication: the resource name of the role with permission to read the registry. Use with ' +
      '`external_id`. Switching between role and access-key authentication creates a new integration.',
  }),
  external_id: attr.string({
    optional: true,
    description: 'Role authentication: the external id the role trust policy requires.',
  }),
  access_key_id: attr.string({
    optional: true,
    description:
      'Access-key authentication: the access key id of a user with permission to read the registry. Use ' +
      'with `secret_access_key`.',
  }),
  secret_access_key: attr.string({
    optional: true,
    sensitive: true,
    writeOnlyTwin: { required: false },
    masked: true,
    description: 'Access-key authentication: the secret of the access key. The platform never returns it.',
  }),
};
type Credentials = ModelOf<typeof credentialFields>;

const ROLE_PAIR = ['role_arn', 'external_id'] as const;
const KEY_PAIR = ['access_key_id', 'secret_access_key'] as const;
const isSet = (v: string | null) => v !== null && v !== '';

const credentialsPath = [attrStep('credentials'), indexStep(0)];

/** Which pair a credentials block holds, judged by `role_arn` (a valid block holds exactly one pair). */
const credentialKind = (blocks: Credentials[] | null) =>
  blocks?.[0] && isSet(blocks[0].role_arn) ? 'ROLE' : 'ACCESS_KEY';

/**
 * The authentication kind a complete configuration asks for, given which fields are set (the
 * secret counts as set when given write-only); throws a path-scoped error otherwise.
 */
function authKind(isGiven: (k: keyof Credentials) => boolean): RegistryAAuthType {
  const role = ROLE_PAIR.filter(isGiven);
  const key = KEY_PAIR.filter(isGiven);
  if (role.length === 2 && key.length === 0) return 'ROLE';
  if (key.length === 2 && role.length === 0) return 'ACCESS_KEY';
  const missing =
    role.length > 0
      ? ROLE_PAIR.find((k) => !isGiven(k))!
      : key.length > 0
        ? KEY_PAIR.find((k) => !isGiven(k))!
        : 'role_arn';
  throw new DiagnosticError(
    'Invalid credentials block',
    'Set `role_arn` and `external_id` for role authentication, or `access_key_id` and ' +
      '`secret_access_key` for access-key authentication.',
    [...credentialsPath, attrStep(missing)],
  );
}

// One credentials pair decides authType, the other never sent (validate below); the image count is limitNumImgs'.
checkedBy('ContainerRegistries:REGISTRY_A', 'check', {
  inCode: 'sec_integration_registry_a validate, limit_num_imgs',
});

export default containerRegistry({
  typeName: 'sec_integration_registry_a',
  registryType: 'REGISTRY_A',
  description:
    'Assesses the container images of a CloudA container registry (RegistryA). The platform reads the ' +
    'registry either by assuming a role (`role_arn` and `external_id`) or with an access key ' +
    '(`access_key_id` and `secret_access_key`).',
  fields: {
    registry_domain: attr.string({
      required: true,
      description: 'The registry host, e.g. `<account>.registry-a.<region>.example.com`.',
    }),
    credentials: block.one(credentialFields, {
      required: true,
      // The platform fixes the authentication kind at creation
      // (docs/api/sec.md, "Registry A authentication"): switching between a role and an access key
      // needs a new integration; rotating within one kind does not.
      replace: (prior: Credentials[], planned: Credentials[]) => credentialKind(prior) !== credentialKind(planned),
      description:
        'How the platform authenticates to the registry: exactly one of the role pair or the access-key pair.',
    }),
    auth_type: attr.string({
      computed: true,
      description: 'The authentication kind the platform uses: `ROLE` or `ACCESS_KEY`.',
    }),
    ...imageLimitFields('REGISTRY_A'),
    non_os_package_support: nonOsPackageSupport(),
  },
  validate(m, diags) {
    const c = m.credentials?.[0] as Record<string, string | null | undefined> | undefined;
    if (!c) return;
    // A field's value, or for the secret its write-only twin's: undefined while not known.
    const value = (k: keyof Credentials) =>
      k === 'secret_access_key' && c[k] === null ? c.secret_access_key_wo : c[k];
    const given = (k: keyof Credentials) => {
      const v = value(k);
      return v !== undefined && isSet(v);
    };
    if (ROLE_PAIR.some(given) && KEY_PAIR.some(given)) {
      diags.error(
        'Invalid credentials block',
        'Set either `role_arn` and `external_id` (role authentication) or `access_key_id` and ' +
          '`secret_access_key` (access-key authentication), not both.',
        credentialsPath,
      );
    } else if ([...ROLE_PAIR, ...KEY_PAIR].every((k) => value(k) !== undefined)) {
      // Every field known: a missing half of a pair is certain now.
      try {
        authKind(given);
      } catch (err) {
        if (!(err instanceof DiagnosticError)) throw err;
        diags.error(err.summary, err.detail, err.path);
      }
    }
  },
  toData(m) {
    // Validation saw the pair complete; the kind follows the non-secret fields, as the secret may be withheld.
    const c = m.credentials[0] ?? { role_arn: null, external_id: null, access_key_id: null, secret_access_key: null };
    const authType: RegistryAAuthType = credentialKind(m.credentials);
    return {
      registryDomain: m.registry_domain,
      authType,
      ...(authType === 'ROLE'
        ? { crossAccountCredentials: { roleArn: c.role_arn!, externalId: c.external_id! } }
        : {
            accessKeyCredentials: { accessKeyId: c.access_key_id!, secretAccessKey: sentSecret(c.secret_access_key) },
          }),
      ...imageLimitsToApi(m),
      nonOsPackageEval: m.non_os_package_support !== false,
    };
  },
  fromData(d, prior) {
    const role = d.crossAccountCredentials;
    const key = d.accessKeyCredentials;
    return {
      registry_domain: d.registryDomain,
      auth_type: d.authType,
      credentials: [
        d.authType === 'ROLE'
          ? {
              role_arn: role?.roleArn ?? null,
              external_id: role?.externalId ?? null,
              access_key_id: null,
              secret_access_key: null,
            }
          : {
              role_arn: null,
              external_id: null,
              access_key_id: key?.accessKeyId ?? null,
              secret_access_key: unlessBlank(key?.secretAccessKey),
            },
      ],
      ...imageLimitsFromApi(d, prior),
      non_os_package_support: d.nonOsPackageEval ?? true,
    };
  },
});
