/**
 * Each resource type in two forms made from its known-valid base configuration, for the real-Terraform
 * part of the property test: the smallest form validation and planning accept (only the required
 * arguments, where the cross-argument rules allow) and the largest (every argument and block set to a
 * valid value its declaration names, as far as the rules allow: arguments that exclude each other
 * keep the first accepted). Both are found greedily, asking the provider at every step. Then HCL for
 * them, literal values throughout.
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';
import { samplesOf } from '../../src/schema/samples.js';
import { fill, type EmulatorHandle, type Provider } from '../acceptance/examples-workspace.js';
import { baselineOf, expectEmulatorHoldsState, type TypeRecord } from '../acceptance/ledger.js';
import { Workspace } from '../acceptance/terraform.js';
import { isArgument, MAX_NEW_DEPTH, valueAt, withValue, type Plain, type Step } from './configs.js';
import type { Lifecycle, Subject } from './lifecycle.js';

export type Accepts = (config: Plain) => Promise<boolean>;

/** A configuration changed one step at a time, each step kept only when the provider accepts it. */
class GreedyForm {
  constructor(
    public current: Plain,
    private readonly accepts: Accepts,
  ) {}

  readonly tryWith = async (path: readonly Step[], value: unknown): Promise<boolean> => this.tryAll([[path, value]]);

  /** Several changes as one step. */
  readonly tryAll = async (changes: readonly Change[]): Promise<boolean> => {
    const candidate = changes.reduce((c, [path, value]) => withValue(c, path, value), this.current);
    if (!(await this.accepts(candidate))) return false;
    this.current = candidate;
    return true;
  };
}

/** The base without every optional argument and block that validation and planning let go. */
export async function smallestForm(fields: Fields, base: Plain, accepts: Accepts): Promise<Plain> {
  const form = new GreedyForm(base, accepts);
  const { tryWith } = form;
  const visit = async (fs: Fields, path: readonly Step[]): Promise<void> => {
    for (const [name, def] of Object.entries(fs)) {
      const at = [...path, name];
      if (def.kind === 'attr') {
        if (!def.options.required && valueAt(form.current, at) !== undefined && valueAt(form.current, at) !== null)
          await tryWith(at, undefined);
        continue;
      }
      const elements = (valueAt(form.current, at) as Plain[] | undefined) ?? [];
      const least = Math.max(def.options.min ?? 0, 1);
      if (elements.length === 0 || ((def.options.min ?? 0) === 0 && (await tryWith(at, [])))) continue;
      if (elements.length > least) await tryWith(at, elements.slice(0, least));
      for (let i = 0; i < ((valueAt(form.current, at) as Plain[]) ?? []).length; i++)
        await visit(def.fields, [...at, i]);
    }
  };
  await visit(fields, []);
  return form.current;
}

/** A new block element with only its required arguments and blocks, each the first value its declaration names; null when one has none. */
function leastElement(fields: Fields): Plain | null {
  const out: Plain = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'block') {
      if ((def.options.min ?? 0) === 0) continue;
      const inner = leastElement(def.fields);
      if (inner === null) return null;
      out[name] = [inner];
    } else if (def.options.required) {
      const [first] = samplesOf(def);
      if (first === undefined) return null;
      out[name] = first;
    }
  }
  return out;
}

/** The base with every optional argument and block set that validation and planning accept, one at a time. */
export async function largestForm(fields: Fields, base: Plain, accepts: Accepts): Promise<Plain> {
  const form = new GreedyForm(base, accepts);
  const { tryWith } = form;
  const visit = async (fs: Fields, path: readonly Step[], depth: number): Promise<void> => {
    for (const [name, def] of Object.entries(fs)) {
      const at = [...path, name];
      if (def.kind === 'attr') {
        const unset = valueAt(form.current, at) === undefined || valueAt(form.current, at) === null;
        // Deprecated arguments have a replacement, which the largest form sets instead.
        if (!unset || !isArgument(def) || def.options.deprecated !== undefined) continue;
        for (const sample of samplesOf(def)) if (await tryWith(at, sample)) break;
        continue;
      }
      if (
        ((valueAt(form.current, at) as Plain[] | undefined) ?? []).length === 0 &&
        depth < MAX_NEW_DEPTH &&
        def.options.deprecated === undefined
      ) {
        const element = leastElement(def.fields);
        if (element !== null) await tryWith(at, [element]);
      }
      for (let i = 0; i < ((valueAt(form.current, at) as Plain[] | undefined) ?? []).length; i++)
        await visit(def.fields, [...at, i], depth + 1);
    }
  };
  await visit(fields, [], 0);
  return form.current;
}

/** The empty value of an attribute's type that means "not set" (`""`, `[]`, `{}`); none for numbers and bools. */
function emptyOf(def: AttrDef<unknown>): unknown {
  const kind = def.type.cty.kind;
  return kind === 'string' ? '' : kind === 'list' || kind === 'set' ? [] : kind === 'map' ? {} : undefined;
}

/**
 * `start` with every text, collection and map argument, at every depth, set to its empty value where
 * validation and planning accept it: a required list the platform may hold empty, texts the platform
 * keeps blank. What an import reads back empty must be written so that it plans again.
 */
export async function emptiedForm(fields: Fields, start: Plain, accepts: Accepts): Promise<Plain> {
  const form = new GreedyForm(start, accepts);
  const visit = async (fs: Fields, path: readonly Step[]): Promise<void> => {
    for (const [name, def] of Object.entries(fs)) {
      const at = [...path, name];
      const v = valueAt(form.current, at);
      if (def.kind === 'attr') {
        const empty = emptyOf(def);
        const set = v !== undefined && v !== null && JSON.stringify(v) !== JSON.stringify(empty);
        if (isArgument(def) && empty !== undefined && set) await form.tryWith(at, empty);
        continue;
      }
      for (let i = 0; i < ((v as Plain[] | undefined) ?? []).length; i++) await visit(def.fields, [...at, i]);
    }
  };
  await visit(fields, []);
  return form.current;
}

type Change = readonly [readonly Step[], unknown];

/**
 * `base` with one deprecated argument or block set, for each place where validation and planning
 * accept one (in a block the base leaves out, a new element holds it): beside what the base sets,
 * and in place of the first optional sibling whose removal lets it in (the current argument that
 * says the same). The objects users made before the current forms existed.
 */
export async function deprecatedForms(fields: Fields, base: Plain, accepts: Accepts): Promise<Plain[]> {
  const forms: Plain[] = [];
  // `node` is the element at `path` (of the base, or new); `prefix` the changes that made it.
  const visit = async (fs: Fields, path: readonly Step[], node: Plain, prefix: readonly Change[]): Promise<void> => {
    for (const [name, def] of Object.entries(fs)) {
      const at = [...path, name];
      const v = node[name];
      const unset = v === undefined || v === null || (Array.isArray(v) && v.length === 0);
      if (def.options.deprecated !== undefined && unset && (def.kind === 'block' || isArgument(def))) {
        const element = def.kind === 'block' ? leastElement(def.fields) : null;
        const value = def.kind === 'attr' ? samplesOf(def)[0] : element !== null ? [element] : undefined;
        const removals = Object.entries(fs)
          .filter(([n, d]) => n !== name && d.options.deprecated === undefined && removable(d, node[n]))
          .map(([n, d]): Change => [[...path, n], d.kind === 'block' ? [] : undefined]);
        if (value !== undefined) {
          const beside = new GreedyForm(base, accepts);
          if (await beside.tryAll([...prefix, [at, value]])) forms.push(beside.current);
          const instead = new GreedyForm(base, accepts);
          const inPlace = removals.map((removal) => () => instead.tryAll([...prefix, removal, [at, value]]));
          if (await someAccepted(inPlace)) forms.push(instead.current);
        }
      }
      if (def.kind !== 'block') continue;
      const elements = (v as Plain[] | undefined) ?? [];
      for (let i = 0; i < elements.length; i++) await visit(def.fields, [...at, i], elements[i]!, prefix);
      const least = elements.length === 0 && holdsDeprecated(def.fields) ? leastElement(def.fields) : null;
      if (least !== null) await visit(def.fields, [...at, 0], least, [...prefix, [at, [least]]]);
    }
  };
  await visit(fields, [], base, []);
  return forms;
}

/** Whether a deprecated argument or block is among these fields, at any depth. */
export function holdsDeprecated(fields: Fields): boolean {
  return Object.values(fields).some(
    (d) => d.options.deprecated !== undefined || (d.kind === 'block' && holdsDeprecated(d.fields)),
  );
}

/** An optional argument or block that is set, which a form may drop. */
function removable(def: Fields[string], v: unknown): boolean {
  if (def.kind === 'block') return (def.options.min ?? 0) === 0 && Array.isArray(v) && v.length > 0;
  return !def.options.required && isArgument(def) && v !== undefined && v !== null;
}

/** Tries each in turn until one succeeds. */
async function someAccepted(tries: readonly (() => Promise<boolean>)[]): Promise<boolean> {
  for (const attempt of tries) if (await attempt()) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// HCL

/** A value as an HCL literal: strings quoted with template sequences escaped, collections and maps in full. */
export function hclValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(hclValue).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, e]) => `${JSON.stringify(k)} = ${hclValue(e)}`)
      .join(', ')} }`;
  throw new Error(`no HCL literal for ${String(v)}`);
}

function hclBody(fields: Fields, config: Plain, indent: string): string[] {
  const lines: string[] = [];
  for (const [name, def] of Object.entries(fields)) {
    const v = config[name];
    if (def.kind === 'attr') {
      if (v !== undefined && v !== null) lines.push(`${indent}${name} = ${hclValue(v)}`);
      continue;
    }
    for (const element of (v as Plain[] | undefined) ?? [])
      lines.push(`${indent}${name} {`, ...hclBody(def.fields, element, `${indent}  `), `${indent}}`);
  }
  return lines;
}

/** `resource "<type>" "<name>" { … }` for a configuration. */
export function hclResource(type: string, name: string, fields: Fields, config: Plain): string {
  return [`resource "${type}" "${name}" {`, ...hclBody(fields, config, '  '), '}', ''].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Under real Terraform

export interface FormsRun {
  readonly provider: Provider;
  readonly subjects: readonly Subject[];
  readonly lifecycle: Lifecycle;
  readonly emulator: EmulatorHandle;
  readonly records: ReadonlyMap<string, TypeRecord>;
}

const NAME = 'props';

/**
 * Every type of a provider in one workspace, so the whole run costs about a dozen Terraform commands:
 * each type in its largest form, applied; its optional arguments removed and applied again; the
 * re-plan empty (`-detailed-exitcode`); imported into an emptied state (`import` blocks) and
 * re-planned empty, or applied once where the example says why an import cannot restore everything;
 * destroyed. Then the same from the smallest form up: created, re-planned, every argument set,
 * re-planned, destroyed. After each apply the emulator holds exactly what the state tracks.
 */
export async function formsUnderTerraform(run: FormsRun): Promise<void> {
  const forms: { s: Subject; smallest: Plain; largest: Plain }[] = [];
  for (const s of run.subjects) {
    const accepts = async (c: Plain) => (await run.lifecycle.verdict(s.type, c)).accepted;
    forms.push({
      s,
      smallest: await smallestForm(s.fields, s.base, accepts),
      largest: await largestForm(s.fields, s.base, accepts),
    });
  }
  const header = `terraform {\n  required_providers {\n    ${run.provider} = {\n      source = "keel/${run.provider}"\n    }\n  }\n}\n\nprovider "${run.provider}" {}\n\n`;
  const hcl = (form: 'smallest' | 'largest') =>
    header + forms.map((f) => hclResource(f.s.type, NAME, f.s.fields, f[form])).join('\n');
  const address = (s: Subject) => `${s.type}.${NAME}`;
  const baseline = baselineOf(run.emulator, run.records);
  const ws = new Workspace(hcl('largest'), run.emulator.env);
  const holds = async (what: string) =>
    expectEmulatorHoldsState(run.emulator, run.records, baseline, await ws.state(), `${run.provider}: ${what}`);
  const apply = async (what: string) => {
    await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
    await holds(what);
  };
  const planIsEmpty = () => ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
  try {
    await apply('the largest forms');
    ws.writeConfig(hcl('smallest'));
    await apply('the optional arguments removed');
    await planIsEmpty();

    const importable = forms.filter((f) => f.s.case.importId !== undefined).map((f) => f.s);
    const state = await ws.state();
    const blocks = importable.map(
      (s) =>
        `import {\n  to = ${address(s)}\n  id = ${JSON.stringify(fill(s.case.importId!, state.get(address(s))!.values))}\n}\n`,
    );
    await ws.expect(['state', 'rm', ...importable.map(address)]);
    writeFileSync(join(ws.dir, 'config', 'imports.tf'), blocks.join('\n'));
    await apply('the import');
    rmSync(join(ws.dir, 'config', 'imports.tf'));
    const plan = await ws.run(['plan', '-detailed-exitcode', '-no-color', '-parallelism=20']);
    if (plan.code === 2) {
      // Only types whose example says why (a secret the platform never returns) may differ, in place.
      const changed = [...plan.stdout.matchAll(/# (\S+) will be updated in-place/g)].map((m) => m[1]);
      const allowed = new Set(importable.filter((s) => s.case.importChanges !== undefined).map(address));
      expect(
        changed.filter((a) => !allowed.has(a!)),
        `${run.provider}: unexpected changes after import\n${plan.stdout}`,
      ).to.deep.equal([]);
      expect(plan.stdout).to.not.match(/must be replaced|will be created|will be destroyed/);
      await apply('the first apply after the import');
      await planIsEmpty();
    } else expect(plan.code, `${run.provider}: plan after import\n${plan.stderr}`).to.equal(0);
    await ws.expect(['destroy', '-auto-approve', '-parallelism=20']);
    await holds('the destroy');

    ws.writeConfig(hcl('smallest'));
    await apply('the smallest forms');
    await planIsEmpty();
    ws.writeConfig(hcl('largest'));
    await apply('every argument set');
    await planIsEmpty();
    await ws.expect(['destroy', '-auto-approve', '-parallelism=20']);
    await holds('the second destroy');
  } finally {
    ws.dispose();
  }
}
