/**
 * What the container registry and scanner integrations share (docs/api/sec.md, "Registry kinds"),
 * written once: the common fields, the mapping of the integration envelope (`type` ContVulnCfg,
 * kind in `data.registryType`), the scanners' server token, and the image limits most of them
 * offer. A member module declares only its registry type and its own `data` fields.
 */
import { checkedBy, secRules } from '../../rules.js';
import { IMAGE_COUNTS, MAX_INLINE_SCANS } from '../../../../wire/sec-contract/container-registries.js';
import {
  attr,
  block,
  type BlockDef,
  type ConfigModelOf,
  DiagnosticError,
  type Diagnostics,
  type Fields,
  type ModelOf,
  type OpContext,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../../../clients/sec/index.js';
import type { Integration } from '../../../../clients/sec/integration.js';
import type {
  ContainerRegistryData,
  ContainerRegistryInput,
  RegistryType,
} from '../../../../clients/sec/container-registries.js';
import { idIdentity, noFilters } from '../../../shared/identity.js';
import { madeAtFrom } from '../../../shared/made-at.js';
import { type Wiring, wireFields } from '../../wired-fields.js';
import { notBlankEntries, sameTrimmedList } from '../../governance-values.js';

const commonFields = {
  id: attr.sdkId('The integration GUID (the same as `intg_guid`).'),
  name: attr.string({
    required: true,
    validate: secRules('Integrations.name', { name: true }),
    description: 'The integration name.',
  }),
  enabled: attr.bool({
    optional: true,
    default: true,
    description: 'State of the integration: whether the platform uses it.',
  }),
  intg_guid: attr.string({ computed: true, description: 'The unique identifier of the integration.' }),
  org_level: attr.bool({
    computed: true,
    description: 'Whether the integration belongs to the organization rather than one account.',
  }),
  type_name: attr.string({
    computed: true,
    description: 'The platform type of the integration (`ContVulnCfg` for every registry and scanner).',
  }),
  created_or_updated_by: attr.string({
    computed: true,
    volatile: true,
    description: 'Who last created or changed the integration.',
  }),
  created_or_updated_time: attr.string({
    computed: true,
    volatile: true,
    description: 'When the integration was last created or changed.',
  }),
};

/**
 * The scanners' connection details, issued by the platform when the integration is created. A
 * member that declares these fields gets them filled from the response's `serverToken`.
 */
export const scannerFields = {
  server_token: attr.string({
    computed: true,
    sensitive: true,
    description:
      'The access token the scanner authenticates to the platform with. A credential, so it is marked ' +
      'sensitive: an `output` that shows it must set `sensitive = true`, or the plan ' +
      'fails.',
  }),
  server_uri: attr.string({ computed: true, description: 'Where to download the scanner from.' }),
};

type CommonFields = typeof commonFields;
type RegistryModel<F extends Fields> = ModelOf<CommonFields & F>;

/** What a read reports for the member's fields: any may be absent or null (not returned, or blanked). */
export type ReadModel<F extends Fields> = {
  [K in keyof F]?: F[K] extends BlockDef<infer G> ? ReadModel<G>[] : ModelOf<F>[K] | null;
};

/** `data` without the registry type, which the family adds. */
export type MemberData<T extends RegistryType> = Omit<ContainerRegistryInput<T>['data'], 'registryType'>;

export interface RegistrySpec<F extends Fields, T extends RegistryType> {
  /** Terraform type name, e.g. `sec_integration_registry_a`. */
  typeName: string;
  /** `data.registryType`, e.g. `REGISTRY_A`. */
  registryType: T;
  description: string;
  fields: F;
  /**
   * Fields sent and read back as they are: attribute name → its path in `data` (`limitNumImg`), checked by
   * the contract's rules for it (../../wired-fields.ts). toData and fromData map the others.
   */
  wire?: Wiring<F>;
  /** Model → the integration's `data` object (without `registryType`). May throw a DiagnosticError with a path. */
  toData(model: RegistryModel<F>): MemberData<T>;
  /** The integration's `data` → the member's own fields; `prior` is the state being refreshed (null on import). */
  fromData(data: ContainerRegistryData<T>, prior: RegistryModel<F> | null): ReadModel<F>;
  /** Rules across fields, at validate and plan time; values not known yet are `undefined` and not judged. */
  validate?(config: ConfigModelOf<CommonFields & F>, diags: Diagnostics): void;
}

export function containerRegistry<F extends Fields, T extends RegistryType>(
  spec: RegistrySpec<F, T>,
): ResourceDef<CommonFields & F, SecClient> {
  const wired = wireFields(`ContainerRegistries:${spec.registryType}`, spec.fields, spec.wire ?? {});
  const fields = { ...commonFields, ...wired.fields } as CommonFields & F;
  type Model = RegistryModel<F>;
  const scanner = 'server_token' in spec.fields;

  // Common fields are typed through the generic F here; read them through the common model.
  const common = (m: Model) => m as unknown as ModelOf<CommonFields>;
  const toApi = (m: Model): ContainerRegistryInput<T> => ({
    name: common(m).name,
    enabled: common(m).enabled !== false,
    data: { ...spec.toData(m), registryType: spec.registryType } as ContainerRegistryInput<T>['data'],
    declared: wired.declared(m),
  });
  const fromApi = (r: Integration<string, unknown>, prior: Model | null): Partial<Model> => {
    // The client has checked `data` against the schema of its registry type.
    const data = r.data as ContainerRegistryData<RegistryType>;
    // Only reachable by importing the GUID of another kind of registry: say so instead of
    // misreading its settings.
    if (data.registryType !== spec.registryType) {
      throw new DiagnosticError(
        'Wrong container registry type',
        `The integration ${r.intgGuid} cannot be managed as ${spec.typeName}: it is of registry type ` +
          `${JSON.stringify(data.registryType)}. Use the resource type that matches the integration.`,
      );
    }
    return {
      id: r.intgGuid,
      intg_guid: r.intgGuid,
      name: r.name,
      enabled: r.enabled,
      org_level: r.isOrg,
      type_name: r.type,
      created_or_updated_by: r.createdOrUpdatedBy,
      created_or_updated_time: r.createdOrUpdatedTime,
      ...(scanner ? { server_token: r.serverToken?.serverToken ?? null, server_uri: r.serverToken?.uri ?? null } : {}),
      ...spec.fromData(data as ContainerRegistryData<T>, prior),
      ...wired.read(data),
    } as Partial<Model>;
  };
  const guidOf = (m: Model): string => common(m).intg_guid ?? common(m).id ?? '';

  /** The API lists every registry and scanner; this type's are those of its registry type. */
  async function registriesOfThisType(ctx: OpContext<SecClient>): Promise<Partial<Model>[]> {
    const registries = await ctx.client.containerRegistries.list({ signal: ctx.signal });
    return registries.filter((r) => r.data.registryType === spec.registryType).map((r) => fromApi(r, null));
  }

  return resource<CommonFields & F, SecClient>({
    typeName: spec.typeName,
    schema: resourceSchema(fields, { description: spec.description }),
    importIdDescription: 'the integration GUID (`intg_guid`)',
    importState: async (id) => ({ id, intg_guid: id }) as Partial<Model>,
    identity: idIdentity('The integration GUID (`intg_guid`).'),
    // The API lists every registry and scanner; this type's are those of its registry type.
    list: {
      schema: noFilters(`integration of this registry type (\`${spec.registryType}\`)`),
      list: (_filters, ctx) => registriesOfThisType(ctx),
      displayName: (m) => common(m).name,
    },
    ...(spec.validate ? { validate: spec.validate } : {}),
    async create(plan, ctx) {
      return fromApi(await ctx.client.containerRegistries.create(toApi(plan), { signal: ctx.signal }), null);
    },
    // A registry is known by its registry type and name.
    findCreated: {
      key: 'its registry type and name',
      uniqueKey: false,
      describe: (plan) => `the ${spec.typeName} registry integration named ${JSON.stringify(common(plan).name)}`,
      list: (_plan, ctx) => registriesOfThisType(ctx),
      holdsKey: (plan, found) => common(found as Model).name === common(plan).name,
      importId: (found) => guidOf(found as Model),
      madeAt: madeAtFrom('created_or_updated_time'),
    },
    async read(prior, ctx) {
      return fromApi(await ctx.client.containerRegistries.get(guidOf(prior), { signal: ctx.signal }), prior);
    },
    readsByListing: {
      pages: listedInOneCall((ctx) => ctx.client.containerRegistries.list({ signal: ctx.signal })),
      idOf: (registry) => registry.intgGuid,
      read: fromApi,
    },
    async update(plan, prior, ctx) {
      return fromApi(
        await ctx.client.containerRegistries.update(guidOf(prior), toApi(plan), { signal: ctx.signal }),
        prior,
      );
    },
    async delete(prior, ctx) {
      await ctx.client.containerRegistries.delete(guidOf(prior), { signal: ctx.signal });
    },
  });
}

// ---- Fields several members share -------------------------------------------------------------

/** The platform assesses the newest 5, 10 or 15 images of each repository (an integer list the contract
 * says in its kinds' check, which derives no validator). */
const imageCount = validators.oneOf(...IMAGE_COUNTS);

/**
 * How many scans an inline scanner may run: a number here, its decimal text on the wire (the contract's
 * pattern and the bound its check sets), so the bound is the contract's constant.
 */
const scanCount = validators.intBetween(1, MAX_INLINE_SCANS);

export const limitByTags = () =>
  attr.stringList({
    optional: true,
    validate: [notBlankEntries],
    equal: sameTrimmedList,
    unordered: true,
    description:
      'Image tags to limit the assessment to (images with a matching tag). With `limit_by_label` as ' +
      'well, an image must match both. Surrounding whitespace is ignored.',
  });

export const limitByRepositories = () =>
  attr.stringList({
    optional: true,
    validate: [notBlankEntries],
    equal: sameTrimmedList,
    unordered: true,
    description: 'Repositories to assess. Surrounding whitespace is ignored.',
  });

/**
 * The key of a `{"<key>": "<value>"}` item of the registry kind `kind`'s list `field` (`limitByLabel`):
 * the contract's check of each item wants one entry (each block is sent as one) whose key is not blank,
 * which the engine's rule for a required text refuses (packages/framework/src/engine/plan/platform-values.ts).
 */
export const keyValueKey = (kind: string, field: string, description: string) => {
  checkedBy(`ContainerRegistries:${kind}.${field}[]`, 'check', { inCode: `${field}: a required key, never blank` });
  return attr.string({ required: true, description });
};

export const limitByLabel = (kind: string) =>
  block.set(
    {
      key: keyValueKey(kind, 'limitByLabel', 'Label key.'),
      value: attr.string({ required: true, description: 'Label value.' }),
    },
    {
      description:
        'Image labels to limit the assessment to. Repeat the block with the same `key` to accept several ' +
        'values of one label. With `limit_by_tags` as well, an image must match both.',
    },
  );

/** The image count of the registry kind `kind` (`REGISTRY_B`), which its range and check bound. */
export const limitNumImgs = (kind: string) => {
  checkedBy(`ContainerRegistries:${kind}.limitNumImg`, 'range', {
    checks: [imageCount],
    stricter: "the kind's check across its body: one of IMAGE_COUNTS",
  });
  // The kind's check is the image count (RegistryA's also its credentials: registry-a.ts's validate).
  checkedBy(`ContainerRegistries:${kind}`, 'check', { inCode: 'limit_num_imgs (one of IMAGE_COUNTS)' });
  return attr.number({
    optional: true,
    default: 5,
    validate: [imageCount],
    description: 'The number of newest container images to assess per repository.',
  });
};

export const nonOsPackageSupport = () =>
  attr.bool({
    optional: true,
    default: true,
    description: 'Whether program-language packages are scanned too, besides operating-system packages.',
  });

export { scanCount };

/** A whole number as the platform is sent it, in its decimal text (limit_num_scan). */
export const decimalText = (value: unknown): unknown => (typeof value === 'number' ? String(value) : value);

/** The image limits of every registry kind `kind` except RegistryE (and of the proxy scanner). */
export const imageLimitFields = (kind: string) => ({
  limit_by_tags: limitByTags(),
  limit_by_label: limitByLabel(kind),
  limit_by_repositories: limitByRepositories(),
  limit_num_imgs: limitNumImgs(kind),
});

interface ImageLimitsModel {
  limit_by_tags: string[] | null;
  limit_by_label: { key: string | null; value: string | null }[];
  limit_by_repositories: string[] | null;
  limit_num_imgs: number | null;
}

interface ImageLimitsData {
  limitByTag: string[];
  limitByLabel: Record<string, string>[];
  limitByRep: string[];
  limitNumImg?: number | undefined;
}

// ---- Mapping helpers --------------------------------------------------------------------------

/** A configured list as the platform wants it: trimmed, or left out when not configured. */
export const trimmedList = (values: string[] | null): string[] | undefined =>
  values === null ? undefined : values.map((v) => v.trim());

/**
 * A list the platform returns empty when it was not configured. Null matches an unset attribute;
 * an explicitly empty list in the prior state stays empty, so neither form shows a diff.
 */
export function listFromApi(values: readonly string[], prior: string[] | null | undefined): string[] | null {
  if (values.length > 0) return [...values];
  return prior !== null && prior !== undefined && prior.length === 0 ? [] : null;
}

/** Label-style blocks → the platform's list of single-entry maps. */
export const keyValuesToApi = (pairs: { key: string | null; value: string | null }[]): Record<string, string>[] =>
  pairs.map((p) => ({ [p.key ?? '']: p.value ?? '' }));

/**
 * The platform's list of single-entry maps → label-style blocks (a map with several entries yields
 * several blocks).
 */
export const keyValuesFromApi = (maps: readonly Record<string, string>[]): { key: string; value: string }[] =>
  maps.flatMap((m) => Object.entries(m).map(([key, value]) => ({ key, value })));

export const imageLimitsToApi = (m: ImageLimitsModel) => ({
  limitByTag: trimmedList(m.limit_by_tags),
  limitByLabel: keyValuesToApi(m.limit_by_label),
  limitByRep: trimmedList(m.limit_by_repositories),
  limitNumImg: m.limit_num_imgs ?? 5,
});

export const imageLimitsFromApi = (d: ImageLimitsData, prior: ImageLimitsModel | null) => ({
  limit_by_tags: listFromApi(d.limitByTag, prior?.limit_by_tags),
  limit_by_label: keyValuesFromApi(d.limitByLabel),
  limit_by_repositories: listFromApi(d.limitByRep, prior?.limit_by_repositories),
  limit_num_imgs: d.limitNumImg ?? 5,
});

/** A masked secret as the platform returns it: blank means "not shown", which the model says as null. */
export const unlessBlank = (value: string | undefined | null): string | null => (value ? value : null);
