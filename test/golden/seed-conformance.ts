/**
 * The seed-conformance suite both providers run (sec-seed.test.ts, vdb-seed.test.ts): the real
 * provider's Pulumi schema, `buildPulumiSchema(await describeProvider(name))`, against its seed
 * document, with one test per seed subject so a failure names what is off.
 */
import { expect } from 'chai';
import { describeProvider } from '../pulumi-model/description.js';
import {
  buildPulumiSchemaWithReport,
  type PulumiPackageSchema,
  type PulumiPropertySpec,
} from '../pulumi-model/schema.js';
import { camelCaseTerraformName, computeTokens } from '../../packages/framework/src/schema/pulumi/naming.js';
import { parseSeed, type ParsedSeed } from './seed-parser.js';
import { allDifferences, compareWithSeed, type AllowedDifference } from './seed-compare.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { loadAtDeclaration, SEED_FIXTURE } from '../support/fixtures.js';

export interface ConformanceSpec {
  /** Also names the seed document (SEED_FIXTURE). */
  provider: 'sec' | 'vdb';
  allowed: AllowedDifference[];
  /** Every Terraform resource type the provider must register (the references' inventory). */
  resourceTypes: string[];
  /** Every Terraform data source type the provider must register. */
  dataSourceTypes: string[];
  /**
   * Values sensitive here that upstream left unflagged but the seed does not show (so the seed cannot
   * confirm them), by attribute name, with where the spec says so.
   */
  sensitiveBeyondSeed?: Array<{ name: string; reason: string }>;
  /** Extra provider-specific tests, run with the built schema and the parsed seed. */
  extra?: (get: () => { schema: PulumiPackageSchema; seed: ParsedSeed }) => void;
}

/** The token the bridge gives a Terraform resource type (`sec_alert_channel_email` → `sec:index/alertChannelEmail:AlertChannelEmail`). */
export function resourceToken(provider: string, tfType: string): string {
  return computeTokens(provider, provider, [tfType], []).resources.get(tfType)!;
}

/**
 * The differences the provider declares with its fields (`addedOverUpstream`): each argument or
 * attribute the upstream provider lacks is "not in the seed", for the reason the field gives, under the
 * name the seed compares it by: the provider's config, the resource, or the nested type the Pulumi
 * schema gives its block (found by following the schema's references down the block's path). Where
 * the seed does not describe that resource or type, or lists only some of its fields (a section that
 * says the others are not shown), no field it lacks is a difference, so the declaration allows nothing
 * (and is no stale allowance). A data source's is refused here with its place, so that
 * none goes unchecked.
 */
export async function upstreamAdditions(provider: 'sec' | 'vdb'): Promise<AllowedDifference[]> {
  const def = await loadProviderDef(provider);
  const seed = loadAtDeclaration(SEED_FIXTURE[provider], parseSeed).value;
  const inFull = Object.entries(seed?.resources ?? {}).filter(([, r]) => !r.partial);
  const described = new Set(['config', ...inFull.map(([name]) => name), ...Object.keys(seed?.types ?? {})]);
  const { schema } = buildPulumiSchemaWithReport(await describeProvider(provider));
  /** The nested type a property refers to (`AccountsClusterConfiguration`), and its properties. */
  const nestedType = (property: PulumiPropertySpec | undefined, where: string) => {
    const ref = property?.$ref ?? property?.items?.$ref ?? property?.additionalProperties?.$ref;
    const token = ref?.replace(/^#\/types\//, '');
    const type = token === undefined ? undefined : schema.types[token];
    if (!token || !type) throw new Error(`${where}: the Pulumi schema has no nested type for this block`);
    return { subject: token.split(':').at(-1)!, properties: type.properties ?? {} };
  };
  const added = (
    fields: Fields,
    where: string,
    subject: string | undefined,
    properties: Record<string, PulumiPropertySpec>,
  ): AllowedDifference[] =>
    Object.entries(fields).flatMap(([name, field]) => {
      const pulumiName = camelCaseTerraformName(name);
      if (field.kind === 'block') {
        if (subject === undefined || !declaresAddition(field.fields))
          return added(field.fields, `${where}.${name}`, undefined, {});
        const inner = nestedType(properties[pulumiName], `${where}.${name}`);
        return added(field.fields, `${where}.${name}`, inner.subject, inner.properties);
      }
      const reason = field.kind === 'attr' ? field.options.addedOverUpstream : undefined;
      if (reason === undefined) return [];
      if (subject === undefined)
        throw new Error(`${where}.${name} is added over upstream: a data source's fields are not seed differences`);
      if (!described.has(subject)) return [];
      return [{ what: `${subject}.${pulumiName}: not in the seed`, reason }];
    });
  const ofResources = def.resources.flatMap((r) => {
    const token = resourceToken(provider, r.typeName);
    const spec = schema.resources[token];
    return added(r.schema.fields as Fields, r.typeName, token.split(':').at(-1), spec?.inputProperties ?? {});
  });
  return [
    ...added(def.schema.fields as Fields, 'provider', 'config', schema.provider?.inputProperties ?? {}),
    ...ofResources,
    ...shownByDataSources(ofResources, schema, described),
    ...def.dataSources.flatMap((d) => added(d.schema.fields as Fields, d.typeName, undefined, {})),
  ];
}

/**
 * A resource's additions as its data sources show them (src/resources/vdb/common.ts, `shownShape`): the
 * field in each nested type of a data source named for the resource (`getAccountsBackupSchedules…` for
 * `AccountsBackupSchedule`) that the seed describes and that holds it, for the resource's reason.
 */
function shownByDataSources(
  additions: readonly AllowedDifference[],
  schema: PulumiPackageSchema,
  described: ReadonlySet<string>,
): AllowedDifference[] {
  return additions.flatMap(({ what, reason }) => {
    const [subject, field] = what.replace(/: not in the seed$/, '').split('.');
    return Object.entries(schema.types)
      .map(([token, type]) => ({ name: token.split(':').at(-1)!, type }))
      .filter(
        ({ name, type }) =>
          name.startsWith(`get${subject}`) && described.has(name) && field! in (type.properties ?? {}),
      )
      .map(({ name }) => ({ what: `${name}.${field}: not in the seed`, reason }));
  });
}

function declaresAddition(fields: Fields): boolean {
  return Object.values(fields).some((field) =>
    field.kind === 'block' ? declaresAddition(field.fields) : field.options.addedOverUpstream !== undefined,
  );
}

/** The function token of a Terraform data source type (`vdb_accounts_clusters` → `vdb:index/getAccountsClusters:getAccountsClusters`). */
export function functionToken(provider: string, tfType: string): string {
  return computeTokens(provider, provider, [], [tfType]).dataSources.get(tfType)!;
}

export function describeSeedConformance(spec: ConformanceSpec): void {
  const loaded = loadAtDeclaration(SEED_FIXTURE[spec.provider], parseSeed);
  const seed: ParsedSeed | undefined = loaded.value;
  const fail = (title: string, lines: string[]) => {
    if (lines.length > 0) expect.fail(`${title}:\n${lines.join('\n')}`);
  };

  describe(`${spec.provider} seed conformance: the whole provider`, () => {
    let schema: PulumiPackageSchema;
    let warnings: string[];

    before(async () => {
      if (loaded.error) throw loaded.error;
      const built = buildPulumiSchemaWithReport(await describeProvider(spec.provider));
      schema = built.schema;
      warnings = built.warnings;
    });

    it('generates no conflicting nested types', () => {
      fail('nested types declared with different shapes', warnings);
    });

    it('registers every resource and data source of the reference inventory', () => {
      fail('missing', [
        ...spec.resourceTypes
          .filter((t) => !schema.resources[resourceToken(spec.provider, t)])
          .map((t) => `resource ${t}`),
        ...spec.dataSourceTypes
          .filter((t) => !schema.functions[functionToken(spec.provider, t)])
          .map((t) => `data source ${t}`),
      ]);
    });

    it('has every resource, nested type and function token the seed names', () => {
      const pkg = spec.provider;
      fail('missing tokens', [
        ...Object.values(seed!.resources)
          .filter((r) => !schema.resources[r.token])
          .map((r) => r.token),
        ...Object.keys(seed!.types)
          .map((n) => `${pkg}:index/${n}:${n}`)
          .filter((t) => !schema.types[t]),
        ...Object.values(seed!.functions)
          .filter((f) => !schema.functions[f.token])
          .map((f) => f.token),
        ...Object.values(seed!.providerMethods).filter((t) => !schema.functions[t]),
      ]);
    });

    const subjects = seed
      ? [
          ...Object.keys(seed.resources),
          ...Object.keys(seed.types),
          ...Object.keys(seed.functions),
          'config',
          'provider',
        ]
      : [];
    for (const subject of subjects) {
      it(`${subject} matches the seed`, () => {
        const diffs = compareWithSeed(schema, seed!, { only: [subject], allowedDifferences: spec.allowed });
        // A field the upstream provider lacks is said with what to do about it.
        const said = diffs.map((d) =>
          d.endsWith(': not in the seed')
            ? `${d}: the upstream provider lacks it, so declare it with \`addedOverUpstream: '<why>'\``
            : d,
        );
        fail(`${diffs.length} difference(s) from the seed`, said);
      });
    }

    it('needs every allowed difference (no stale allowance)', () => {
      const all = compareWithSeed(schema, seed!, { allowedDifferences: spec.allowed, reportUnusedAllowances: true });
      fail(
        'allowances that match nothing',
        all.filter((d) => d.startsWith('allowed difference matched nothing')),
      );
    });

    it('marks sensitiveUnlikeUpstream the secrets the seed leaves unflagged, and those the spec adds', async () => {
      // They are what the provider page's migration note names.
      // Provider settings cannot be output; the rest can, and an output of them now needs `sensitive = true`.
      const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const unflagged = allDifferences(schema, seed!)
        .filter((d) => /: is secret, the seed does not flag it/.test(d) && !d.startsWith('config.'))
        .map((d) => snake(/^[^:]*\.([A-Za-z0-9]+):/.exec(d)![1]!));
      const def = await loadProviderDef(spec.provider);
      const walk = (fields: Fields): string[] =>
        Object.entries(fields).flatMap(([n, d]) =>
          d.kind === 'block' ? walk(d.fields) : d.options.sensitiveUnlikeUpstream ? [n] : [],
        );
      const marked = [...def.resources, ...def.dataSources].flatMap((r) => walk(r.schema.fields as Fields));
      const beyond = (spec.sensitiveBeyondSeed ?? []).map((b) => b.name);
      expect([...new Set(marked)].sort()).to.deep.equal([...new Set([...unflagged, ...beyond])].sort());
    });

    it('gives every allowed difference a reason', () => {
      for (const a of spec.allowed) expect(a.reason.trim(), a.what).to.not.equal('');
    });

    spec.extra?.(() => ({ schema, seed: seed! }));
  });
}
