/**
 * Import with configuration Terraform generates, for the property test of every importable
 * type: objects exist on the platform as a user's own (made in the forms the schema DSL allows); a
 * workspace holds nothing but `import` blocks; `terraform plan -generate-config-out` must write
 * configuration that plans, the apply must import every object without changing it, and the re-plan
 * must be empty.
 *
 * The forms of each type (`importRoundTrip`): its largest (every argument set), its smallest (only
 * what is required), its largest with every text and collection emptied where accepted, its deprecated
 * forms (each deprecated argument and block beside or in place of what replaces it) and random
 * variations of its base (the lifecycle property test's generator). All objects of a provider are
 * imported together, into one workspace; forms of a type whose key the platform keeps unique go in a
 * chain of later rounds, one per round (two objects cannot hold one key), run beside the first.
 *
 * One exception, derived from the schema (`requiredUnreadable`): a required value no read brings back
 * (a secret, which Terraform writes as `null # sensitive` in generated configuration, or a value the
 * platform left out of its answers, written as null). Such an object's generated configuration is
 * refused with exactly one "Missing configuration for required argument" per value; filled in as the
 * resource's page says, it plans, and the first apply sends the values once and changes nothing else.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderDef, ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import { requiredUnreadable, type FieldDef, type Fields } from '../../packages/framework/src/schema/define.js';
import { toModel, valueToPlain } from '../../packages/framework/src/schema/model.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { ProviderCallError, type TerraformClient } from '../../src/tfclient/terraform-client.js';
import { generateResourceContents, resourceBlock } from '../../src/tfclient/genconfig.js';
import { formatPath } from '../../packages/framework/src/schema/path.js';
import { at, fill, type EmulatorHandle, type Provider } from '../acceptance/examples-workspace.js';
import { baselineOf, expectEmulatorHoldsState, type Baseline, type TypeRecord } from '../acceptance/ledger.js';
import { Workspace } from '../acceptance/terraform.js';
import { isArgument, variationArb, type Plain } from './configs.js';
import { deprecatedForms, emptiedForm, hclValue, largestForm, smallestForm } from './forms.js';
import { show, type Lifecycle, type Subject } from './lifecycle.js';

/** One provider's world, as the lifecycle property test has it (test/props/lifecycle.test.ts). */
export interface RoundTripRun {
  readonly provider: Provider;
  readonly def: ProviderDef<any, any>;
  /** Every resource type with its known-valid base configuration. */
  readonly subjects: readonly Subject[];
  readonly lifecycle: Lifecycle;
  readonly tf: TerraformClient;
  readonly emulator: EmulatorHandle;
  readonly records: ReadonlyMap<string, TypeRecord>;
  /** Seeds the random variations. */
  readonly seed: number;
  /** Random variations of each type's base, beside its fixed forms. */
  readonly variations: number;
}

export interface Figures {
  /** Seconds to find the forms (asking the provider at every step). */
  readonly formsSeconds: number;
  readonly types: number;
  /** Objects made, by form. */
  readonly forms: Map<string, number>;
  readonly rounds: RoundFigures[];
  /** Forms the platform refused to make, with its reason. */
  readonly refused: string[];
}

export interface RoundFigures {
  readonly objects: number;
  /** Objects whose generated configuration needed a required value filled in. */
  readonly filled: number;
  /** Of those, objects whose provider-written configuration planned an update (a value sent once). */
  readonly sent: number;
  readonly seconds: number;
}

/** An object made on the platform, to be imported as `<type>.<name>`. */
export interface Made {
  readonly subject: Subject;
  /** Its resource name in the workspace: the form it was made in. */
  readonly name: string;
  /** The configuration it was made with. */
  readonly plain: Plain;
  /** Its state right after it was made. */
  readonly state: ObjectValue;
  /** Its state as an import reads it (the Terraform-side client's import and read). */
  readonly imported: ObjectValue;
}

/** A configuration to make an object from, named by its form. */
interface Form {
  readonly s: Subject;
  readonly name: string;
  readonly plain: Plain;
}

// ---------------------------------------------------------------------------------------------------
// Every importable type, in its forms

/**
 * Every importable type of a provider through generated configuration (module comment), in the forms
 * its schema declaration allows, made from its known-valid base.
 */
export async function importRoundTrip(w: RoundTripRun): Promise<Figures> {
  const importable = w.subjects.filter((s) => w.def.resources.find((r) => r.typeName === s.type)?.importState);
  // The examples name an import id for every type that has one.
  const withoutId = importable.filter((s) => s.case.importId === undefined).map((s) => s.type);
  expect(withoutId, 'importable types without an import id in their example').to.deep.equal([]);
  const started = Date.now();
  const forms: Form[] = [];
  for (const [i, s] of importable.entries()) forms.push(...(await formsOf(w, s, i)));
  const { shared, unique } = await roundsOf(w, forms);
  const formsSeconds = (Date.now() - started) / 1000;

  const refused: string[] = [];
  const start = baselineOf(w.emulator, w.records);
  // The objects of the rounds under way: each round's checks leave out the others' objects, and run
  // while no round is making objects (an object may exist before its round knows it).
  const underWay = new Set<Made[]>();
  let last: Promise<unknown> = Promise.resolve();
  const alone = <T>(step: () => T | Promise<T>): Promise<T> => {
    const run = last.then(step);
    last = run.catch(() => undefined);
    return run;
  };
  const round = async (forms: readonly Form[]): Promise<RoundFigures> => {
    const made: Made[] = [];
    underWay.add(made);
    const others = () => [...underWay].filter((other) => other !== made).flat();
    const baseline = () => withObjects(start, others(), w.records);
    try {
      await alone(() => make(w, forms, made, refused));
      const { provider, emulator, records, tf } = w;
      return await importWithGeneratedConfig({ provider, made, emulator, records, baseline, alone, tf });
    } catch (err) {
      await cleanUp(w, made, baseline);
      throw err;
    } finally {
      underWay.delete(made);
    }
  };
  const chain = async () => {
    const out: RoundFigures[] = [];
    for (const forms of unique) out.push(await round(forms));
    return out;
  };
  const [first, rest] = await Promise.allSettled([round(shared), chain()]);
  if (first.status === 'rejected') throw first.reason;
  if (rest.status === 'rejected') throw rest.reason;

  const byForm = new Map<string, number>();
  for (const f of forms) byForm.set(f.name.replace(/_\d+$/, ''), (byForm.get(f.name.replace(/_\d+$/, '')) ?? 0) + 1);
  return { formsSeconds, types: importable.length, forms: byForm, rounds: [first.value, ...rest.value], refused };
}

/** The forms of one type: fixed ones, then random variations; each configuration once, each accepted. */
async function formsOf(w: RoundTripRun, s: Subject, index: number): Promise<Form[]> {
  const accepts = async (c: Plain) => (await w.lifecycle.verdict(s.type, c)).accepted;
  const largest = await largestForm(s.fields, s.base, accepts);
  const numbered = (name: string, configs: readonly Plain[]) =>
    configs.map((p, i): [string, Plain] => [`${name}_${i + 1}`, p]);
  const candidates: [string, Plain][] = [
    ['largest', largest],
    ['smallest', await smallestForm(s.fields, s.base, accepts)],
    ['emptied', await emptiedForm(s.fields, largest, accepts)],
    ...numbered('deprecated', await deprecatedForms(s.fields, s.base, accepts)),
    ...numbered('random', fc.sample(variationArb(s.fields, s.base), { seed: w.seed + index, numRuns: w.variations })),
  ];
  const seen = new Set<string>();
  const forms: Form[] = [];
  for (const [name, plain] of candidates) {
    if (seen.has(show(plain)) || !(await accepts(plain))) continue;
    seen.add(show(plain));
    forms.push({ s, name, plain });
  }
  return forms;
}

/** Whether the platform keeps the key of this form's object unique (the type's `findCreated`). */
async function holdsUniqueKey(w: RoundTripRun, r: ResourceDef<any, any>, f: Form): Promise<boolean> {
  const unique = r.findCreated?.uniqueKey ?? false;
  if (typeof unique === 'boolean') return unique;
  const verdict = await w.lifecycle.verdict(f.s.type, f.plain);
  return verdict.accepted && unique(toModel(r.schema.fields, verdict.planned.planned!));
}

/**
 * Rounds of forms such that no two in a round hold a unique key of the same type: one round of every
 * form whose key the platform lets objects share, and a chain of rounds with the forms whose key is
 * unique, the n-th of each type in the n-th (they run one after the other, beside the first).
 */
async function roundsOf(w: RoundTripRun, forms: readonly Form[]): Promise<{ shared: Form[]; unique: Form[][] }> {
  const shared: Form[] = [];
  const unique: Form[][] = [];
  const seen = new Map<string, number>();
  for (const f of forms) {
    const r = w.def.resources.find((x) => x.typeName === f.s.type)!;
    if (!(await holdsUniqueKey(w, r, f))) {
      shared.push(f);
      continue;
    }
    const n = seen.get(f.s.type) ?? 0;
    seen.set(f.s.type, n + 1);
    (unique[n] ??= []).push(f);
  }
  return { shared, unique };
}

/**
 * Makes the objects of a round on the emulator through the provider, as any client of the platform
 * would, into `made`. A form the platform refuses (values only its API judges) is left out and named
 * in `refused`.
 */
async function make(w: RoundTripRun, forms: readonly Form[], made: Made[], refused: string[]): Promise<void> {
  for (const f of forms) {
    const verdict = await w.lifecycle.verdict(f.s.type, f.plain);
    if (!verdict.accepted) expect.fail(`${f.s.type} (${f.name}): ${verdict.why.join('; ')}`);
    try {
      const { state } = await w.tf.apply(f.s.type, null, verdict.planned, verdict.config);
      if (state === null) expect.fail(`${f.s.type} (${f.name}): the create returned no object`);
      const imported = await w.tf.importState(f.s.type, fill(f.s.case.importId!, valueToPlain(state) as Plain));
      made.push({ subject: f.s, name: f.name, plain: f.plain, state, imported });
    } catch (err) {
      const byPlatform =
        err instanceof ProviderCallError &&
        err.diagnostics.every((d) => d.summary.startsWith('Cannot create') && !/bug in the provider/i.test(d.detail));
      if (!byPlatform) throw err;
      refused.push(`${f.s.type} (${f.name}): ${err.diagnostics.map((d) => d.detail).join('; ')}`);
    }
  }
}

/** After a failed round: its objects destroyed through the provider, then whatever else it left removed. */
async function cleanUp(w: RoundTripRun, made: readonly Made[], baseline: () => Baseline): Promise<void> {
  for (const m of made) {
    try {
      await w.tf.apply(m.subject.type, m.state, await w.tf.plan(m.subject.type, m.state, null), null);
    } catch {
      // Destroyed by the round already, or removed below.
    }
  }
  for (const [collection, before] of baseline()) {
    for (const id of w.emulator.ids(collection)) if (!before.has(id)) w.emulator.remove(collection, id);
  }
}

/** `baseline` with the objects of `made` added to it. */
function withObjects(baseline: Baseline, made: readonly Made[], records: ReadonlyMap<string, TypeRecord>): Baseline {
  const out = new Map([...baseline].map(([c, ids]) => [c, new Set(ids)]));
  for (const m of made) {
    const { collection, id } = objectKey(records, m);
    out.get(collection)?.add(id);
  }
  return out;
}

/** The figures of a provider's run, for the test's output. */
export function describeFigures(provider: Provider, f: Figures): string {
  const objects = f.rounds.reduce((n, r) => n + r.objects, 0);
  const filled = f.rounds.reduce((n, r) => n + r.filled, 0);
  const byForm = [...f.forms].map(([k, n]) => `${k} ${n}`).join(', ');
  const sent = f.rounds.reduce((n, r) => n + r.sent, 0);
  const rounds = f.rounds.map((r) => `${r.objects} in ${r.seconds.toFixed(0)} s`).join(', ');
  const beside = f.rounds.length > 1 ? '; the first beside the others' : '';
  const refused = f.refused.map((r) => `\n        ${r}`).join('');
  return (
    `${provider}: forms found in ${f.formsSeconds.toFixed(0)} s; ${f.types} importable types, ${objects} objects ` +
    `(${byForm}) in ${f.rounds.length} rounds (${rounds}${beside}); ` +
    `${filled} with a required value filled in after generation; with the configuration the provider writes, ` +
    `${sent} sent a value it does not return once, the others imported with no change` +
    `${f.refused.length > 0 ? `; forms the platform refused to make: ${f.refused.length}${refused}` : ''}`
  );
}

// ---------------------------------------------------------------------------------------------------
// One round: import blocks, generated configuration, plan, apply, re-plan, destroy

export interface Round {
  readonly provider: Provider;
  readonly made: readonly Made[];
  readonly emulator: EmulatorHandle;
  readonly records: ReadonlyMap<string, TypeRecord>;
  /** What the emulator holds beside the round's objects (before they were made, and other rounds' objects). */
  readonly baseline: () => Baseline;
  /** Runs a check of the emulator while no other round is making objects. */
  readonly alone: <T>(check: () => T) => Promise<T>;
  /** The Terraform-side client on the real executable, for the requests Terraform 1.14 sends. */
  readonly tf: TerraformClient;
}

const PARALLELISM = '-parallelism=20';

/**
 * The objects of `round` imported into a workspace of `import` blocks with generated configuration;
 * see the module comment. Destroys them at the end, and checks the emulator after each step.
 */
export async function importWithGeneratedConfig(round: Round): Promise<RoundFigures> {
  const started = Date.now();
  const { provider, made, emulator, records, baseline, alone } = round;
  const held = (m: Made) => emulator.get(objectKey(records, m).collection, objectKey(records, m).id);
  const toFill = new Map(made.map((m) => [addressOf(m), valuesToFill(m.subject.fields, m.plain, m.imported)]));
  const lacking = made.filter((m) => toFill.get(addressOf(m))!.length > 0);
  const imports = made.map((m) => {
    const id = fill(m.subject.case.importId!, valueToPlain(m.state) as Plain);
    return `import {\n  to = ${addressOf(m)}\n  id = ${hclValue(id)}\n}\n`;
  });
  const source = `    ${provider} = {\n      source = "keel/${provider}"\n    }\n`;
  const header = `terraform {\n  required_providers {\n${source}  }\n}\n\n`;
  // What the platform holds before anything is imported, once it has finished what it does on its
  // own (a backup made by the round is still RUNNING for a moment, and an import reads it later).
  await emulator.atRest();
  const before = new Map(made.map((m) => [addressOf(m), structuredClone(held(m))]));
  const ws = new Workspace(`${header}provider "${provider}" {}\n\n${imports.join('\n')}`, emulator.env);
  const generatedFile = join(ws.dir, 'config', 'generated.tf');
  try {
    const generation = await ws.run(['plan', '-generate-config-out=generated.tf', '-out=tfplan', '-json', PARALLELISM]);
    const errors = diagnosticsOf(generation.stdout).filter((d) => d.severity === 'error');
    // Exactly one refusal per missing value, at its resource; nothing else. Terraform 1.14 and later
    // show one of refusals alike in text (each names its object by its `name`: two objects of a type
    // with the same name, lacking the same value, are one refusal), so each side is counted once.
    const refused = [
      ...new Set(
        errors.map((d) => {
          const detail = d.detail.replace(/ is required.*?( \(\w+ "[^"]*"\))?$/s, ' is required$1');
          return `${String(d.address ?? '(no address)').split('.')[0]}: ${d.summary}: ${detail}`;
        }),
      ),
    ];
    const expected = [
      ...new Set(
        lacking.flatMap((m) =>
          toFill.get(addressOf(m))!.map((s) => {
            const named =
              typeof m.state.name === 'string' && m.state.name !== ''
                ? ` (${m.subject.type} ${JSON.stringify(m.state.name)})`
                : '';
            const argument = `The argument "${String(s.path.at(-1))}" is required${named}`;
            return `${m.subject.type}: Missing configuration for required argument: ${argument}`;
          }),
        ),
      ),
    ];
    const unexpected = without(refused, expected);
    const missing = without(expected, refused);
    if (unexpected.length + missing.length > 0) {
      const involved = new Set([...unexpected, ...missing].map((e) => e.split(':')[0]!));
      const blocks = resourceBlocks(safeRead(generatedFile)).filter(([address]) =>
        involved.has(address.split('.')[0]!),
      );
      const listed = (lines: readonly string[], none: string) => lines.map((e) => `  ${e}`).join('\n') || `  ${none}`;
      expect.fail(
        `${provider}: the generated configuration of ${involved.size} objects does not plan as it should.\n` +
          `Refused:\n${listed(unexpected, '(nothing unexpected)')}\n` +
          `Not refused although a required value is missing:\n${listed(missing, '(none)')}\n` +
          `Generated configuration:\n${blocks.map(([, text]) => text).join('\n')}\n` +
          `${errors.length === 0 ? generation.stderr : ''}`,
      );
    }
    if (lacking.length > 0) {
      writeFileSync(generatedFile, withValuesFilled(readFileSync(generatedFile, 'utf8'), toFill));
      await ws.expect(['plan', '-out=tfplan', '-no-color', PARALLELISM]);
    } else expect(generation.code, `${provider}: plan with generated configuration\n${generation.stderr}`).to.equal(0);

    // Every object is imported as it is; only a value filled in is sent, once.
    const shown = await ws.expect(['show', '-json', 'tfplan']);
    const plan = JSON.parse(shown.stdout) as { resource_changes?: ResourceChange[] };
    const changes = new Map((plan.resource_changes ?? []).map((c) => [c.address, c.change]));
    const notAsIs: string[] = [];
    for (const m of made) {
      const change = changes.get(addressOf(m));
      const filledNames = new Set(toFill.get(addressOf(m))!.map((s) => String(s.path[0])));
      const actions = change?.actions.join(',') ?? 'none';
      // The arguments it changes (what the platform computes, as the time of an update, follows them).
      const differs = (k: string) => JSON.stringify(change?.before?.[k]) !== JSON.stringify(change?.after?.[k]);
      const changed = Object.entries(m.subject.fields)
        .filter(([k, def]) => (def.kind === 'block' || isArgument(def)) && differs(k))
        .map(([k]) => k);
      const allowed = filledNames.size > 0 && actions === 'update' && changed.every((k) => filledNames.has(k));
      if (!change?.importing || (actions !== 'no-op' && !allowed)) {
        notAsIs.push(`${addressOf(m)}: ${actions}${change?.importing ? '' : ' (not imported)'} ${changed.join(', ')}`);
      }
    }
    expect(notAsIs.join('\n'), `${provider}: the plan imports every object unchanged`).to.equal('');

    await ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM, 'tfplan']);
    const state = await ws.state();
    await alone(() => expectEmulatorHoldsState(emulator, records, baseline(), state, `${provider}: after the import`));
    for (const m of made) {
      expect(state.has(addressOf(m)), `${addressOf(m)} is in the state`).to.equal(true);
      // What the platform holds did not change: nothing was sent for it (a value filled in is sent again).
      if (toFill.get(addressOf(m))!.length > 0) continue;
      expect(held(m), `${addressOf(m)} on the platform after the import`).to.deep.equal(before.get(addressOf(m)));
    }
    await ws.expect(['plan', '-detailed-exitcode', '-no-color', PARALLELISM], 0);

    // The same objects again, with the configuration the provider writes (Terraform 1.14 and later).
    const sent = await importWithProviderWrittenConfig(round);

    await ws.expect(['destroy', '-auto-approve', '-no-color', PARALLELISM]);
    const none = new Map();
    await alone(() => expectEmulatorHoldsState(emulator, records, baseline(), none, `${provider}: after the destroy`));
    return { objects: made.length, filled: lacking.length, sent, seconds: (Date.now() - started) / 1000 };
  } finally {
    ws.dispose();
  }
}

/**
 * The objects of a round imported with the configuration the provider writes for them, as Terraform
 * 1.14 and later write it (`plan -generate-config-out` with `import` blocks, or `query
 * -generate-config-out`): for each object, GenerateResourceConfig with the state its import reads (the
 * request Terraform sends), the answer rendered to HCL by Terraform's rules (src/tfclient/genconfig.ts,
 * then `terraform fmt`, Terraform's own formatter). The user sets what the answer's warning names:
 * each secret in its write-only form where it has one (`<name>_wo`), else as it is, and each value
 * the platform does not return. Terraform 1.11 then plans it from `import` blocks: every object is
 * imported with no change, except that a value it does not return (not write-only) is sent once;
 * the platform holds what it held; the re-plan is empty. The legacy round's workspace destroys the
 * objects after. Returns how many objects planned an update.
 */
async function importWithProviderWrittenConfig(round: Round): Promise<number> {
  const { provider, made, emulator, records, baseline, alone, tf } = round;
  const held = (m: Made) => emulator.get(objectKey(records, m).collection, objectKey(records, m).id);
  const toFill = new Map<string, ToFill[]>();
  const generated: string[] = [];
  const unnamed: string[] = [];
  for (const m of made) {
    const { config, warnings } = await tf.generateResourceConfig(m.subject.type, sourceOf(m));
    const body = generateResourceContents(tf.resourceSchema(m.subject.type).block, config);
    const id = fill(m.subject.case.importId!, valueToPlain(m.state) as Plain);
    generated.push(
      `\n# __generated__ by Terraform from ${JSON.stringify(id)}\n${resourceBlock(m.subject.type, m.name, body)}\n`,
    );
    const fills = valuesToFill(m.subject.fields, m.plain, sourceOf(m)).map((f) => inWriteOnlyForm(m.subject.fields, f));
    toFill.set(addressOf(m), fills);
    // The warning is how the user learns what to set: it names each value, and comes only then.
    const note = warnings.filter((w) => w.summary === 'Generated configuration to complete').map((w) => w.detail);
    const said = note.join('\n');
    const missing = fills.map((f) => formatPath(toPath(f.path))).filter((p) => !said.includes(`\`${p}\``));
    if (missing.length > 0 || (fills.length === 0) !== (note.length === 0))
      unnamed.push(
        `${addressOf(m)}: to set ${fills.map((f) => f.path.join('.')).join(', ') || 'nothing'}; said: ${said || '(nothing)'}`,
      );
  }
  expect(unnamed, `${provider}: the warnings of GenerateResourceConfig name what to set`).to.deep.equal([]);
  const imports = made.map((m) => {
    const id = fill(m.subject.case.importId!, valueToPlain(m.state) as Plain);
    return `import {\n  to = ${addressOf(m)}\n  id = ${hclValue(id)}\n}\n`;
  });
  const source = `    ${provider} = {\n      source = "keel/${provider}"\n    }\n`;
  const header = `terraform {\n  required_providers {\n${source}  }\n}\n\n`;
  const before = new Map(made.map((m) => [addressOf(m), structuredClone(held(m))]));
  const ws = new Workspace(`${header}provider "${provider}" {}\n\n${imports.join('\n')}`, emulator.env);
  const generatedFile = join(ws.dir, 'config', 'generated.tf');
  try {
    const fileHeader =
      '# __generated__ by Terraform\n# Please review these resources and move them into your main configuration files.\n';
    writeFileSync(generatedFile, `${fileHeader}${generated.join('')}`);
    // genconfig's last step, hclwrite.Format, is what `terraform fmt` applies.
    await ws.expect(['fmt', '-no-color']);
    writeFileSync(generatedFile, withValuesFilled(readFileSync(generatedFile, 'utf8'), toFill));
    const planned = await ws.run(['plan', '-out=tfplan', '-no-color', PARALLELISM]);
    if (planned.code !== 0)
      expect.fail(
        `${provider}: the provider-written configuration does not plan\n${planned.stderr}\n` +
          `Generated configuration:\n${readFileSync(generatedFile, 'utf8')}`,
      );
    const shown = await ws.expect(['show', '-json', 'tfplan']);
    const plan = JSON.parse(shown.stdout) as { resource_changes?: ResourceChange[] };
    const changes = new Map((plan.resource_changes ?? []).map((c) => [c.address, c.change]));
    // A value filled in that is not write-only is sent once: the platform never returned it.
    const sends = (m: Made) => toFill.get(addressOf(m))!.some((f) => !String(f.path.at(-1)).endsWith('_wo'));
    const notAsIs: string[] = [];
    for (const m of made) {
      const change = changes.get(addressOf(m));
      const actions = change?.actions.join(',') ?? 'none';
      const filledNames = new Set(toFill.get(addressOf(m))!.map((f) => String(f.path[0])));
      const differs = (k: string) => JSON.stringify(change?.before?.[k]) !== JSON.stringify(change?.after?.[k]);
      const changed = Object.entries(m.subject.fields)
        .filter(([k, def]) => (def.kind === 'block' || isArgument(def)) && differs(k))
        .map(([k]) => k);
      const allowed = sends(m) && actions === 'update' && changed.every((k) => filledNames.has(k));
      if (!change?.importing || (actions !== 'no-op' && !allowed)) {
        const block = resourceBlocks(readFileSync(generatedFile, 'utf8')).find(([a]) => a === addressOf(m));
        notAsIs.push(
          `${addressOf(m)}: ${actions}${change?.importing ? '' : ' (not imported)'} ${changed.join(', ')}\n` +
            `${block?.[1] ?? '(no resource block)'}`,
        );
      }
    }
    expect(
      notAsIs.join('\n'),
      `${provider}: the provider-written configuration imports every object unchanged`,
    ).to.equal('');
    await ws.expect(['apply', '-auto-approve', '-no-color', PARALLELISM, 'tfplan']);
    const state = await ws.state();
    await alone(() => expectEmulatorHoldsState(emulator, records, baseline(), state, `${provider}: provider-written`));
    for (const m of made) {
      if (sends(m)) continue;
      expect(held(m), `${addressOf(m)} on the platform after its provider-written import`).to.deep.equal(
        before.get(addressOf(m)),
      );
    }
    await ws.expect(['plan', '-detailed-exitcode', '-no-color', PARALLELISM], 0);
    return made.filter(sends).length;
  } finally {
    ws.dispose();
  }
}

/**
 * The state GenerateResourceConfig is given for an object: the one its import reads, as Terraform
 * sends it; for an object made in a deprecated form, the state its create left, which holds that
 * form (Terraform never sends one, but the rules must write the current form from it all the same).
 */
const sourceOf = (m: Made): ObjectValue => (m.name.startsWith('deprecated') ? m.state : m.imported);

/** A value to fill in, at its write-only twin (`<name>_wo`) where its argument has one. */
function inWriteOnlyForm(fields: Fields, f: ToFill): ToFill {
  let def: FieldDef | undefined;
  let level: Fields | undefined = fields;
  for (const step of f.path) {
    if (typeof step === 'number') continue;
    def = level?.[step];
    level = def?.kind === 'block' ? def.fields : undefined;
  }
  const twin = def?.kind === 'attr' && def.options.writeOnlyTwin !== undefined;
  return twin ? { ...f, path: [...f.path.slice(0, -1), `${String(f.path.at(-1))}_wo`] } : f;
}

/** A ToFill path as an attribute path. */
const toPath = (path: readonly (string | number)[]) =>
  path.map((s) => (typeof s === 'number' ? { index: s } : { attr: s }));

export const addressOf = (m: Made) => `${m.subject.type}.${m.name}`;

/** Where the emulator keeps an object. */
export function objectKey(records: ReadonlyMap<string, TypeRecord>, m: Made): { collection: string; id: string } {
  const record = records.get(m.subject.type)!;
  return { collection: record.collection, id: at(valueToPlain(m.state), record.key) as string };
}

/** A required value generated configuration lacks: where it is (block names with indices) and its value. */
export interface ToFill {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

/**
 * What generated configuration lacks of an object made with `plain`, imported as `imported`: each
 * required secret, and each required value the platform did not return (`requiredUnreadable`), one
 * per block element that holds one, with the value it was made with.
 */
export function valuesToFill(fields: Fields, plain: Plain, imported: ObjectValue): ToFill[] {
  const out: ToFill[] = [];
  type Where = readonly (string | number)[];
  const walk = (value: Plain, read: Plain | undefined, path: readonly string[], secret: boolean, at: Where): void => {
    const [head, ...rest] = path as [string, ...string[]];
    if (rest.length > 0) {
      const readElements = (read?.[head] as Plain[] | undefined) ?? [];
      const elements = (value[head] as Plain[] | undefined) ?? [];
      elements.forEach((element, i) => walk(element, readElements[i], rest, secret, [...at, head, i]));
      return;
    }
    const returned = read?.[head] !== undefined && read[head] !== null && read[head] !== '';
    if (secret || !returned) out.push({ path: [...at, head], value: value[head] ?? value[`${head}_wo`] });
  };
  const read = valueToPlain(imported) as Plain;
  for (const u of requiredUnreadable(fields)) walk(plain, read, u.path, u.secret, []);
  return out;
}

/**
 * Generated configuration with the missing values filled in, as a user does after generation: each
 * `<name> = null # sensitive` (or `= null`) line at a value's path, in the resource block of its address.
 */
export function withValuesFilled(generated: string, toFill: ReadonlyMap<string, readonly ToFill[]>): string {
  const lines = generated.split('\n');
  let resource: readonly ToFill[] = [];
  // The blocks open at the line, each with its index among the blocks of its name there.
  const open: { name: string; index: number; seen: Map<string, number> }[] = [];
  let top = new Map<string, number>();
  const filled = new Set<ToFill>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^resource "([^"]+)" "([^"]+)" \{$/.exec(line);
    if (header) {
      resource = toFill.get(`${header[1]}.${header[2]}`) ?? [];
      open.length = 0;
      top = new Map();
      continue;
    }
    const blockStart = /^\s+([a-z0-9_]+) \{$/.exec(line);
    if (blockStart) {
      const seen = open.at(-1)?.seen ?? top;
      const index = seen.get(blockStart[1]!) ?? 0;
      seen.set(blockStart[1]!, index + 1);
      open.push({ name: blockStart[1]!, index, seen: new Map() });
      continue;
    }
    if (/^\s+\}$/.test(line)) {
      open.pop();
      continue;
    }
    const nulled = /^(\s+)([a-z0-9_]+)(\s*)= null( # sensitive)?$/.exec(line);
    if (!nulled) continue;
    const path = JSON.stringify([...open.flatMap((b) => [b.name, b.index]), nulled[2]]);
    const missing = resource.find((s) => JSON.stringify(s.path) === path);
    if (!missing) continue;
    lines[i] = `${nulled[1]}${nulled[2]}${nulled[3]}= ${hclValue(missing.value)}`;
    filled.add(missing);
  }
  const missed = [...toFill].flatMap(([address, list]) =>
    list.filter((s) => !filled.has(s)).map((s) => `${address}: ${s.path.join('.')}`),
  );
  expect(missed, 'required values generated configuration should have written as null').to.deep.equal([]);
  return lines.join('\n');
}

/** A diagnostic of Terraform's `-json` output. */
interface TerraformDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail: string;
  readonly address?: string;
}

function diagnosticsOf(jsonLines: string): TerraformDiagnostic[] {
  return jsonLines
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { type: string; diagnostic?: TerraformDiagnostic })
    .flatMap((m) => (m.type === 'diagnostic' && m.diagnostic ? [m.diagnostic] : []));
}

/** One planned change of `terraform show -json <plan>`. */
interface ResourceChange {
  readonly address: string;
  readonly change: {
    readonly actions: string[];
    readonly importing?: unknown;
    readonly before: Plain | null;
    readonly after: Plain | null;
  };
}

/** `a` without one occurrence of each element of `b`. */
function without(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** The resource blocks of generated configuration, by address. */
function resourceBlocks(generated: string): [string, string][] {
  const blocks = generated.matchAll(/^resource "([^"]+)" "([^"]+)" \{$[\s\S]*?^\}$/gm);
  return [...blocks].map((m) => [`${m[1]}.${m[2]}`, m[0]]);
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '(none written)';
  }
}
