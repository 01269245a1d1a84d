/**
 * The rules of GenerateResourceConfig (packages/framework/src/engine/resources/generate-config.ts), over every resource
 * type of
 * both providers, on random states of each type's schema (test/fuzz/values.ts):
 * - the answer is an object of the schema's type, wholly known (a null one would make Terraform 1.14
 *   panic), with every computed-only attribute, write-only value and secret null;
 * - deprecated arguments and blocks are left empty, their values written in the field that replaces
 *   them: a state in a deprecated form writes what the same state in the current form writes;
 * - a value equal to the argument's default is left out, and so is any value of an optional argument
 *   the platform computes (its choice, when the user gives none); any other value is written as the
 *   state holds it, in the spelling its validators' documentation shows (`written`);
 * - Terraform's proposed new state from the answer, planned by the engine's planner, is the state
 *   itself: the answer plans no change against the state it came from (for a state as an import or a
 *   listing reads it: current form, secrets and write-only values not held, defaults filled in);
 * - what the answer cannot hold (required secrets, required values the platform does not return) is
 *   named in a warning, with the write-only twin to set.
 * The whole round trip, through Terraform's rendering and Terraform's plan, is in
 * test/props/generated-config.ts.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { ProviderDef, ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { configFromState } from '../../packages/framework/src/engine/resources/generate-config.js';
import { planObject } from '../../packages/framework/src/engine/plan/index.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import { blockShapeProblem, impliedType } from '../../packages/framework/src/schema/block.js';
import type { AttrDef, BlockDef, Fields } from '../../packages/framework/src/schema/define.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { fieldType, plainToValue, valueToPlain } from '../../packages/framework/src/schema/model.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { formatPath } from '../../packages/framework/src/schema/path.js';
import {
  dedupeSetElements,
  isEmptyValue,
  isPlainObject,
  isWhollyKnown,
  sameMeaning,
  valueEquals,
} from '../../packages/framework/src/schema/value-ops.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';
import { blockValueArb } from '../fuzz/values.js';
import { quietLogger } from '../support/quiet-logger.js';
import { configValue } from '../../src/tfclient/terraform-client.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 41_001);
const RUNS = Number(process.env.GENERATE_CONFIG_RUNS ?? 100);
const STATE_RULES = { itemCounts: false, noNullElements: true, known: true };

const PROVIDERS: ProviderDef<any, any>[] = [secDef, vdbDef];

/** Random states of a type, as Terraform may hold them (no null elements, nothing unknown). */
function statesOf(r: ResourceDef<any, any>): fc.Arbitrary<ObjectValue> {
  const block = r.schema.block;
  return blockValueArb(block, 'state', r.schema.fields).filter(
    (s) => blockShapeProblem(block, s, STATE_RULES) === null,
  );
}

/** An attribute the user may set (not computed-only, not the platform-assigned `id`). */
const isUserArgument = (d: AttrDef<unknown>) =>
  (d.options.required || d.options.optional || d.options.default !== undefined) && d.options.platformAssigned !== true;

/** The fields that replace a deprecated sibling holding a value in `state` (`readAs`): values move in. */
const replacementsInUse = (fields: Fields, state: ObjectValue) =>
  new Set(
    Object.entries(fields).flatMap(([n, d]) =>
      d.options.readAs && !isEmptyValue(state[n] ?? null) ? [d.options.readAs.field] : [],
    ),
  );

/** Every rule that judges one field alone, at every depth, as problems `path: what`. */
function ruleProblems(fields: Fields, state: ObjectValue, config: ObjectValue, at = ''): string[] {
  const problems: string[] = [];
  const moved = replacementsInUse(fields, state);
  for (const [name, def] of Object.entries(fields)) {
    const where = at ? `${at}.${name}` : name;
    const s = state[name] ?? null;
    const c = config[name] ?? null;
    if (moved.has(name)) continue;
    if (def.kind === 'block') {
      problems.push(...blockProblems(def, s, c, where));
      continue;
    }
    const o = def.options;
    const type = def.type.cty;
    const wrong = (what: string) => problems.push(`${where}: ${what} (state ${show(s)}, written ${show(c)})`);
    if (!isUserArgument(def)) {
      if (c !== null) wrong('computed-only, yet written');
    } else if (o.writeOnly || o.sensitive) {
      if (c !== null) wrong('a secret, yet written');
    } else if (o.deprecated !== undefined) {
      if (c !== null) wrong('deprecated, yet written');
    } else if (o.default !== undefined && s !== null && valueEquals(type, s, plainToValue(type, o.default))) {
      if (c !== null) wrong('its default, yet written');
    } else if (o.computed) {
      if (c !== null) wrong("the platform's choice, yet written");
    } else if (!valueEquals(type, writtenForm(def, s), c)) wrong('not written as the state holds it');
  }
  return problems;
}

function blockProblems(def: BlockDef<Fields>, s: Value, c: Value, where: string): string[] {
  if (def.options.deprecated !== undefined) return isEmptyValue(c) ? [] : [`${where}: a deprecated block, yet written`];
  const single = def.nesting === 'single' || def.nesting === 'group';
  const states = (single ? (s === null ? [] : [s]) : ((s as ObjectValue[] | null) ?? [])) as ObjectValue[];
  const configs = (single ? (c === null ? [] : [c]) : ((c as ObjectValue[] | null) ?? [])) as ObjectValue[];
  // Set elements that differ only in what is not written become one, and an element that sets
  // nothing where that means no element is dropped: each written element comes from one in the state.
  if (def.nesting === 'set' || def.options.emptyMeansAbsent)
    return configs.length > states.length ? [`${where}: more elements written than the state holds`] : [];
  if (configs.length !== states.length) return [`${where}: ${configs.length} elements written of ${states.length}`];
  return states.flatMap((e, i) => ruleProblems(def.fields, e, configs[i]!, `${where}[${i}]`));
}

const show = (v: Value) => JSON.stringify(valueToPlain(v));

/** A value in the spelling the first of its validators that knows one gives (`written`). */
function writtenForm(def: AttrDef<unknown>, v: Value): Value {
  if (v === null) return v;
  for (const validator of def.options.validate ?? []) {
    const written = validator.written?.(valueToPlain(v));
    if (written !== undefined) return plainToValue(def.type.cty, written);
  }
  return v;
}

/**
 * A state as an import or a listing reads it (engine/plan/reconcile.ts reconcileRead), one some
 * configuration could have planned: current form, no secret or write-only value, defaults filled in,
 * a required argument the platform returns never null (empty instead), and no two elements of a set
 * block alike in all the user sets (a configuration's set holds each once).
 */
function importForm(fields: Fields, state: ObjectValue): ObjectValue {
  const out: ObjectValue = { ...state };
  for (const [name, def] of Object.entries(fields)) {
    const v = out[name] ?? null;
    if (def.kind === 'block') {
      if (def.options.deprecated !== undefined) out[name] = def.nesting === 'single' ? null : [];
      else if (Array.isArray(v)) {
        const elements = v.map((e) => importForm(def.fields, e as ObjectValue));
        const kept = elements.filter((e) => !(def.options.emptyMeansAbsent && setsNothing(def.fields, e)));
        out[name] = def.nesting === 'set' ? onceBySettings(def, kept) : kept;
      } else if (isPlainObject(v)) out[name] = importForm(def.fields, v);
      continue;
    }
    const o = def.options;
    if (o.deprecated !== undefined || o.sensitive || o.writeOnly) out[name] = null;
    else if (o.default !== undefined && v === null) out[name] = plainToValue(def.type.cty, o.default);
    else if (o.required && !o.masked && v === null) out[name] = emptyOf(def.type.cty);
  }
  return out;
}

function emptyOf(type: CtyType): Value {
  if (type.kind === 'string') return '';
  if (type.kind === 'list' || type.kind === 'set') return [];
  return type.kind === 'map' ? {} : null;
}

/** Set elements, each kept once by what the user sets in it (null ≡ empty, as the planner pairs them). */
function onceBySettings(def: BlockDef<Fields>, elements: ObjectValue[]): ObjectValue[] {
  const settings = Object.entries(def.fields).filter(([, d]) => d.kind === 'block' || isUserArgument(d));
  const alike = (a: ObjectValue, b: ObjectValue) =>
    settings.every(([n, d]) => sameMeaning(fieldType(d), a[n] ?? null, b[n] ?? null));
  const kept: ObjectValue[] = [];
  for (const e of elements) if (!kept.some((k) => alike(k, e))) kept.push(e);
  const type = fieldType(def);
  return type.kind === 'set' ? (dedupeSetElements(type.element, kept) as ObjectValue[]) : kept;
}

/** Whether a block element sets nothing: every field null, empty or its default. */
function setsNothing(fields: Fields, e: ObjectValue): boolean {
  return Object.entries(fields).every(([n, d]) => {
    const v = e[n] ?? null;
    if (isEmptyValue(v)) return true;
    if (d.kind !== 'attr' || d.options.default === undefined) return false;
    return valueEquals(d.type.cty, v, plainToValue(d.type.cty, d.options.default));
  });
}

/**
 * `state` with each deprecated field that has a replacement (`readAs`), at every depth, in one of two
 * forms: `deprecated` keeps its value there and empties the replacement; `current` puts its value,
 * converted, in the replacement and empties it. Written with the conversion alone, apart from the
 * engine's own moving.
 */
function inForm(fields: Fields, state: ObjectValue, form: 'deprecated' | 'current'): ObjectValue {
  const out: ObjectValue = { ...state };
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind !== 'block') continue;
    const v = out[name] ?? null;
    if (Array.isArray(v)) out[name] = v.map((e) => inForm(def.fields, e as ObjectValue, form));
    else if (isPlainObject(v)) out[name] = inForm(def.fields, v, form);
  }
  for (const [name, def] of Object.entries(fields)) {
    const readAs = def.options.readAs;
    if (!readAs) continue;
    const into = fields[readAs.field]!;
    const emptyOf = (d: typeof def) => (d.kind === 'block' ? [] : null);
    const v = out[name] ?? null;
    if (form === 'deprecated') out[readAs.field] = emptyOf(into);
    else {
      out[readAs.field] = isEmptyValue(v) ? emptyOf(into) : converted(fieldType(into), v, readAs.convert ?? ((x) => x));
      out[name] = emptyOf(def);
    }
  }
  return out;
}

function converted(type: CtyType, v: Value, convert: (x: any) => unknown): Value {
  if (type.kind !== 'list' && type.kind !== 'set') return plainToValue(type, convert(valueToPlain(v)));
  const elements = (valueToPlain(v) as unknown[]).map((e) => plainToValue(type.element, convert(e)));
  return type.kind === 'set' ? dedupeSetElements(type.element, elements) : elements;
}

/** Deprecated fields at every depth: `path` and whether a replacement is declared. */
function deprecatedFields(fields: Fields, at = ''): { path: string; readAs: boolean }[] {
  return Object.entries(fields).flatMap(([name, def]) => [
    ...(def.options.deprecated !== undefined
      ? [{ path: `${at}${name}`, readAs: def.options.readAs !== undefined }]
      : []),
    ...(def.kind === 'block' ? deprecatedFields(def.fields, `${at}${name}.`) : []),
  ]);
}

describe('GenerateResourceConfig: the rules, over every resource type of both providers', function () {
  this.timeout(300_000);

  it('every deprecated argument and block names what replaces it (`readAs`), or the resource writes it (`generatedConfig`), or has none', () => {
    const withoutReplacement = PROVIDERS.flatMap((def) =>
      def.resources.flatMap((r) =>
        deprecatedFields(r.schema.fields)
          .filter((f) => !f.readAs)
          .map((f) => `${r.typeName}.${f.path}`),
      ),
    );
    // private_region_id is the cluster's region only when it is hybrid, which the resource says; the
    // JWT flag is a test switch of the platform that nothing replaces.
    expect(withoutReplacement).to.deep.equal([
      'vdb_accounts_cluster.private_region_id',
      'vdb_accounts_cluster.configuration.database_configuration.service.force_include_jwt_rbac',
    ]);
    expect(vdbDef.resources.find((r) => r.typeName === 'vdb_accounts_cluster')!.generatedConfig).to.be.a('function');
  });

  for (const def of PROVIDERS) {
    const engine = new ProviderEngine(def, quietLogger, {});
    describe(def.name, () => {
      def.resources.forEach((r, i) => {
        const fields = r.schema.fields as Fields;
        const type = impliedType(r.schema.block);
        const names = Object.keys(fields);

        it(`${r.typeName}: an object of its type; computed-only values, secrets, deprecated forms and the platform's choices empty; defaults left out; the rest as the state holds it, spelled as documented`, () => {
          fc.assert(
            fc.property(statesOf(r), (state) => {
              const { config } = configFromState(fields, state);
              expect(config, 'never null: Terraform 1.14 panics on a null answer').to.not.equal(null);
              expect(isWhollyKnown(type, config)).to.equal(true);
              expect(
                valueEquals(type, decodeMsgpack(type, encodeMsgpack(type, config)), config),
                'encodes at the schema type',
              ).to.equal(true);
              expect(ruleProblems(fields, state, config)).to.deep.equal([]);
            }),
            { seed: SEED + i, numRuns: RUNS },
          );
        });

        if (deprecatedFields(fields).some((f) => f.readAs))
          it(`${r.typeName}: a state in a deprecated form writes what the same state in the current form writes`, () => {
            let moved = 0;
            fc.assert(
              fc.property(statesOf(r), (state) => {
                const deprecated = inForm(fields, state, 'deprecated');
                const current = inForm(fields, state, 'current');
                if (!valueEquals(type, deprecated, current)) moved++;
                const a = configFromState(fields, deprecated).config;
                const b = configFromState(fields, current).config;
                expect(valueEquals(type, a, b), `${show(a)}\nvs\n${show(b)}`).to.equal(true);
              }),
              { seed: SEED + 1000 + i, numRuns: RUNS },
            );
            expect(moved, 'states that hold a deprecated form').to.be.greaterThan(0);
          });

        it(`${r.typeName}: planned against the state it came from (as an import reads it), the answer changes nothing`, () => {
          fc.assert(
            fc.property(statesOf(r), (random) => {
              const state = importForm(fields, random);
              const { config, diags } = engine.generateResourceConfig(r.typeName, state);
              expect(diags.hasErrors).to.equal(false);
              const proposed = proposedNew(r.schema.block, state, config) as ObjectValue;
              const { planned, requiresReplace } = planObject(fields, state, proposed, config);
              const changed = names.filter(
                (k) => !valueEquals(fieldType(fields[k]!), state[k] ?? null, planned[k] ?? null),
              );
              const changes = changed.map((k) => `${k}: ${show(state[k] ?? null)}\n  → ${show(planned[k] ?? null)}`);
              expect(changes.join('\n'), `written: ${show(config)}`).to.equal('');
              expect(requiresReplace.map(formatPath)).to.deep.equal([]);
            }),
            { seed: SEED + 2000 + i, numRuns: RUNS },
          );
        });
      });
    });
  }
});

describe('GenerateResourceConfig: what the answer says besides the configuration', () => {
  const sec = new ProviderEngine(secDef, quietLogger, {});
  const vdb = new ProviderEngine(vdbDef, quietLogger, {});
  const stateOf = (def: ProviderDef<any, any>, type: string, plain: Record<string, unknown>) =>
    configValue(def.resources.find((r) => r.typeName === type)!.schema.block, plain);

  it('Terraform 1.14.0 sends no state: every argument unset, never null, and a warning saying why', () => {
    const { config, diags } = sec.generateResourceConfig('sec_alert_channel_email', null);
    expect(diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['warning', 'No configuration written for sec_alert_channel_email'],
    ]);
    expect(diags.items[0]!.detail).to.include('1.14.1');
    expect(config).to.deep.equal(stateOf(secDef, 'sec_alert_channel_email', {}));
  });

  it("writes what a user writes: not the platform's choices, and values in their documented spelling", () => {
    const generated = (def: ProviderDef<any, any>, type: string, state: Record<string, unknown>, fromProvider = {}) => {
      const r = def.resources.find((x) => x.typeName === type)!;
      return valueToPlain(configFromState(r.schema.fields as Fields, stateOf(def, type, state), fromProvider).config);
    };
    const cluster = generated(vdbDef, 'vdb_accounts_cluster', {
      name: 'search',
      account_id: '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
      configuration: [{ number_of_nodes: 1, version: 'v1.13.2' }],
    }) as { account_id: unknown; configuration: { number_of_nodes: unknown; version: unknown }[] };
    expect(cluster.configuration[0]!.version, 'the engine version the platform picked').to.equal(null);
    expect(cluster.configuration[0]!.number_of_nodes).to.equal(1);
    expect(cluster.account_id, 'with no provider account known').to.equal(null);
    const schedule = { cluster_id: '5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', retention_period: '72h0m0s' };
    expect(generated(vdbDef, 'vdb_accounts_backup_schedule', schedule)).to.include({ retention_period: '72h' });
    expect(generated(vdbDef, 'vdb_accounts_backup_schedule', { ...schedule, retention_period: '1h30m0s' })).to.include({
      retention_period: '1h30m',
    });
    expect(generated(secDef, 'sec_policy', { title: 'x', severity: 'high' })).to.include({ severity: 'High' });
    // The account: left out where it is the provider's, written where the object lives in another.
    const account = (held: string) =>
      generated(vdbDef, 'vdb_accounts_role', { name: 'r', account_id: held }, { account_id: 'a-provider' });
    expect(account('a-provider')).to.include({ account_id: null });
    expect(account('b-other')).to.include({ account_id: 'b-other' });
  });

  it('an unknown type is an error', () => {
    const { diags } = sec.generateResourceConfig('sec_nothing', stateOf(secDef, 'sec_alert_channel_email', {}));
    expect(diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([['error', 'Unknown resource type']]);
  });

  it('a required secret is named with its write-only twin, and no secret is ever written', () => {
    const state = stateOf(secDef, 'sec_alert_channel_webhook', {
      id: 'CH_1',
      name: 'hooks',
      webhook_url: 'https://hooks.example/secret-path',
      enabled: true,
    });
    const { config, diags } = sec.generateResourceConfig('sec_alert_channel_webhook', state);
    expect(config.webhook_url).to.equal(null);
    expect(config.webhook_url_wo).to.equal(null);
    expect(config.name).to.equal('hooks');
    expect(config.enabled, 'the default').to.equal(null);
    expect(diags.items.map((d) => [d.severity, d.summary])).to.deep.equal([
      ['warning', 'Generated configuration to complete'],
    ]);
    const detail = diags.items[0]!.detail;
    expect(detail).to.include('sec_alert_channel_webhook "CH_1"');
    expect(detail).to.include('`webhook_url_wo`').and.include('or `webhook_url`');
    expect(detail, 'the secret itself').to.not.include('secret-path');
  });

  it('a required value the platform does not return is named beside the secrets, at its block path', () => {
    const state = stateOf(secDef, 'sec_integration_cloud_b_cfg', {
      id: 'INT_1',
      name: 'gcp',
      credentials: [{ client_id: 'c', client_email: 'e@x', private_key_id: null }],
    });
    const { diags } = sec.generateResourceConfig('sec_integration_cloud_b_cfg', state);
    const detail = diags.items.map((d) => d.detail).join('\n');
    expect(detail).to.include('`credentials[0].private_key_wo`').and.include('`credentials[0].private_key_id`');
  });

  it('nothing to complete: no warning', () => {
    const state = stateOf(secDef, 'sec_alert_channel_email', { id: 'CH_2', name: 'mail', recipients: ['a@x'] });
    expect(sec.generateResourceConfig('sec_alert_channel_email', state).diags.items).to.deep.equal([]);
  });

  it("vdb_accounts_cluster: a hybrid cluster's deprecated private_region_id is written as its cloud_region", () => {
    const cluster = (plain: Record<string, unknown>) =>
      stateOf(vdbDef, 'vdb_accounts_cluster', {
        id: 'c1',
        name: 'db',
        configuration: [{ number_of_nodes: 1 }],
        ...plain,
      });
    const hybrid = vdb.generateResourceConfig(
      'vdb_accounts_cluster',
      cluster({ cloud_provider: 'hybrid', cloud_region: 'placeholder', private_region_id: 'env-1' }),
    ).config;
    expect([hybrid.cloud_region, hybrid.private_region_id]).to.deep.equal(['env-1', null]);
    const aws = vdb.generateResourceConfig(
      'vdb_accounts_cluster',
      cluster({ cloud_provider: 'aws', cloud_region: 'eu-central-1' }),
    ).config;
    expect([aws.cloud_region, aws.private_region_id]).to.deep.equal(['eu-central-1', null]);
  });
});
