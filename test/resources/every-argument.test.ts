/**
 * Every optional argument of every resource type is sent, kept by the platform, read back and changed
 * alone: in this process (the framework's harness) against each provider's emulator, each type's
 * one-of-each object (test/resources/<p>/one-of-each.ts) is made again with one argument it leaves unset
 * given a value its declaration accepts (src/schema/samples.ts), then read, and the plan of the same
 * configuration must change nothing; then the argument alone takes another accepted value, and again.
 * A field whose create or update the resource does not send, whose value the emulator does not store,
 * or whose answer the read does not map fails here in seconds, naming the type and the argument; so
 * does a data source that shows the type's objects (found in its answer by their `id`) and drops the
 * argument or shows it otherwise than an import of the object reads it. An
 * argument no such value exists for (it names objects, it must match another, the platform assigns
 * it) is left to the tests of its type, as is one the configuration refuses beside the others.
 */
import { expect } from 'chai';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { HarnessError } from '../../packages/framework/src/testing/harness-diagnostics.js';
import { ProviderHarness } from '../../packages/framework/src/testing/harness.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { samplesOf } from '../../src/schema/samples.js';
import { inScope, TYPES_IN_SCOPE } from '../support/types-in-scope.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { isArgument, type Step, valueAt, withValue } from '../props/configs.js';
import type { Case, Plain } from './identity-and-lists.js';
import { makeSecPrerequisites, SEC_CASES } from './sec/one-of-each.js';
import { prepareVdbPrerequisites, VDB_CASES, VDB_DATA_SOURCES } from './vdb/one-of-each.js';

/**
 * The sec data sources that show a resource type's fields: none (the agent access token's looks the
 * token up by name and shows the token alone).
 */
const SEC_DATA_SOURCES: DataSources = {};

/** A field's place among the declarations: a block's fields under its name, its element index dropped. */
const fieldPath = (path: readonly Step[]): Step[] =>
  path.flatMap((step, i) => (typeof step === 'number' ? [] : i === 0 ? [step] : ['fields', step]));

/**
 * The optional arguments of a type its case leaves unset, at the top and in the first element of each
 * block the case sets, each with two values it accepts (or one).
 */
function untried(fields: Fields, base: Plain, at: Step[] = []): { path: Step[]; values: unknown[] }[] {
  return Object.entries(fields).flatMap(([name, def]) => {
    const path = [...at, name];
    const given = valueAt(base, path);
    if (def.kind === 'block') {
      if (Array.isArray(given) && given.length > 0) return untried(def.fields, base, [...path, 0]);
      // A block the case leaves out: one element of its required arguments, where each has a value.
      const element = smallestElement(def.fields);
      return element === undefined || (def.options.deprecated ?? '') !== '' ? [] : [{ path, values: [[element]] }];
    }
    if (given !== undefined || !isArgument(def)) return [];
    const o = (def as AttrDef<unknown>).options;
    if (o.required || o.writeOnly || o.twinOf !== undefined || o.deprecated !== undefined || o.providerOnly) return [];
    const values = samplesOf(def as AttrDef<unknown>).filter((v) => JSON.stringify(v) !== JSON.stringify(o.default));
    return values.length === 0 ? [] : [{ path, values: values.slice(0, 2) }];
  });
}

/** A block element setting its required arguments alone, each to a value it accepts; none where one has none. */
function smallestElement(fields: Fields): Plain | undefined {
  const element: Plain = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'block') {
      if ((def.options.min ?? 0) > 0) return undefined;
      continue;
    }
    const o = (def as AttrDef<unknown>).options;
    if (!o.required) continue;
    const [value] = samplesOf(def as AttrDef<unknown>);
    if (value === undefined) return undefined;
    element[name] = value;
  }
  return element;
}

interface Outcome {
  readonly tried: string[];
  readonly refused: string[];
  readonly problems: string[];
}

/** Configurations of the data sources, from the objects made (by type); one that needs another type throws. */
type DataSources = Readonly<Record<string, (made: ReadonlyMap<string, Record<string, unknown>>) => Plain>>;

/** The object with this `id` in a data source's answer: the answer itself, or one of its lists' elements. */
function objectWithId(tree: unknown, id: unknown): Plain | undefined {
  if (Array.isArray(tree)) {
    for (const element of tree) {
      const found = objectWithId(element, id);
      if (found) return found;
    }
    return undefined;
  }
  if (tree === null || typeof tree !== 'object') return undefined;
  if ((tree as Plain).id === id) return tree as Plain;
  return objectWithId(Object.values(tree), id);
}

/** What each data source that shows the object `state` says at `path`, where it differs from the state. */
async function dataSourceProblems(
  harness: ProviderHarness,
  dataSources: DataSources,
  row: Case,
  state: Record<string, unknown>,
  path: Step[],
): Promise<string[]> {
  const type = row.type;
  const made = new Map([[type, state]]);
  // What the platform holds, as a data source shows it: the object as an import reads it, with no prior
  // state whose form a read keeps (a resource's legacy entries that change nothing, say).
  let imported: Record<string, unknown> | undefined;
  const platformForm = async () =>
    (imported ??= await harness.importState(type, row.importId?.(state as never) ?? (state.id as string)));
  const problems: string[] = [];
  for (const [source, configOf] of Object.entries(dataSources)) {
    let config: Plain;
    try {
      config = configOf(made);
    } catch {
      continue; // it reads another type's objects
    }
    const shown = objectWithId(await harness.readDataSource(source, config), state.id);
    if (shown === undefined) continue;
    const [held, there] = [valueAt(await platformForm(), path), valueAt(shown, path)];
    if (JSON.stringify(there) !== JSON.stringify(held))
      problems.push(
        `data source ${source} shows ${path.join('.')} as ${JSON.stringify(there)}, an import ${JSON.stringify(held)}`,
      );
  }
  return problems;
}

/** Makes, reads and changes each untried argument of each case; what went wrong, by type and argument. */
async function tryEveryArgument(
  harness: ProviderHarness,
  def: ProviderDef<any, any>,
  cases: readonly Case[],
  dataSources: DataSources,
) {
  const outcome: Outcome = { tried: [], refused: [], problems: [] };
  const said = (error: unknown) =>
    error instanceof HarnessError
      ? error.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join(' / ')
      : String(error);
  for (const row of cases) {
    const r = def.resources.find((x) => x.typeName === row.type)!;
    const base = row.config();
    for (const { path, values } of untried(r.schema.fields as Fields, base)) {
      const at = `${row.type}.${path.join('.')}`;
      const config = withValue(base, path, values[0]);
      // A value the configuration or the plan refuses beside the case's others is not this test's.
      const refused = await harness.plan(row.type, { config }).then(
        (plan) => plan.diagnostics.some((d) => d.severity === 'error'),
        () => true,
      );
      if (refused || harness.validate(row.type, config).some((d) => d.severity === 'error')) {
        outcome.refused.push(at);
        continue;
      }
      let state: Record<string, unknown> | null = null;
      try {
        state = await harness.create(row.type, config);
      } catch (error) {
        outcome.problems.push(`${at} = ${JSON.stringify(values[0])}: the create failed: ${said(error)}`);
        continue;
      }
      outcome.tried.push(at);
      try {
        row.settle?.();
        const read = async (when: string, with_: Plain) => {
          state = await harness.read(row.type, state!);
          if (state === null) throw new Error(`${when}: the read found no object`);
          const plan = await harness.plan(row.type, { config: with_, prior: state });
          if (plan.action !== 'no-op')
            throw new Error(
              `${when}: the plan of the same configuration would ${plan.action} ${plan.changes.join(', ')}`,
            );
        };
        await read(`made with ${JSON.stringify(values[0])}`, config);
        const sensitive = (valueAt(r.schema.fields as Plain, fieldPath(path)) as AttrDef<unknown>).options.sensitive;
        if (!sensitive)
          for (const problem of await dataSourceProblems(harness, dataSources, row, state!, path))
            outcome.problems.push(`${at}: ${problem}`);
        if (values.length > 1) {
          const changed = withValue(base, path, values[1]);
          state = await harness.apply(row.type, { config: changed, prior: state });
          row.settle?.();
          await read(`changed alone to ${JSON.stringify(values[1])}`, changed);
        }
        // Unset again: the platform must clear it, or the next plan shows the value it kept.
        state = await harness.apply(row.type, { config: base, prior: state });
        row.settle?.();
        await read('unset again', base);
      } catch (error) {
        outcome.problems.push(`${at}: ${error instanceof HarnessError ? said(error) : (error as Error).message}`);
      } finally {
        if (state !== null) await harness.destroy(row.type, state).catch(() => undefined);
      }
    }
  }
  return outcome;
}

const scoped = (cases: readonly Case[]) => cases.filter((row) => inScope(row.type));

/** The provider served in process against its emulator: every argument of every case tried. */
async function everyArgumentOf(
  provider: 'sec' | 'vdb',
  env: NodeJS.ProcessEnv,
  cases: readonly Case[],
  dataSources: DataSources,
  prepare: (harness: ProviderHarness) => Promise<void> = async () => undefined,
): Promise<Outcome> {
  const def = await loadProviderDef(provider);
  const harness = await ProviderHarness.start(def, { env: { ...process.env, ...env } });
  await prepare(harness);
  const outcome = await tryEveryArgument(harness, def, cases, dataSources);
  console.log(`      ${outcome.tried.length} arguments tried, ${outcome.refused.length} refused beside the case's`);
  return outcome;
}

describe('every optional argument is sent, kept, read back, changed alone and unset again', function () {
  this.timeout(300_000);

  it('sec', async function () {
    if (scoped(SEC_CASES).length === 0) this.skip();
    const emulator = await startSecEmulator();
    try {
      const cases = scoped(SEC_CASES);
      const outcome = await everyArgumentOf('sec', secProviderEnv(emulator), cases, SEC_DATA_SOURCES, (harness) =>
        makeSecPrerequisites((type, config) => harness.create(type, config) as never),
      );
      expect(outcome.problems, 'arguments not sent, kept or read back').to.deep.equal([]);
      if (TYPES_IN_SCOPE === undefined) expect(outcome.tried.length).to.be.above(20);
    } finally {
      await emulator.close();
    }
  });

  it('vdb', async function () {
    if (scoped(VDB_CASES).length === 0) this.skip();
    const emulator = await startVdbEmulator({ provisioningMs: 50 });
    try {
      await prepareVdbPrerequisites(emulator);
      const outcome = await everyArgumentOf('vdb', vdbProviderEnv(emulator), scoped(VDB_CASES), VDB_DATA_SOURCES);
      expect(outcome.problems, 'arguments not sent, kept or read back').to.deep.equal([]);
      if (TYPES_IN_SCOPE === undefined) expect(outcome.tried.length).to.be.above(5);
    } finally {
      await emulator.close();
    }
  });
});
