/**
 * GenerateResourceConfig (protocol 6.10): the configuration of an object Terraform lists (`terraform
 * query -generate-config-out`) or imports (`plan -generate-config-out`), written by the provider
 * instead of by Terraform's own extraction, which keeps computed values, deprecated forms and defaults.
 * Terraform 1.14.1 and later send the object's state (1.14.0 sends none: hashicorp/terraform#37896)
 * and render the answer to HCL themselves (internal/genconfig), which fixes what an answer can say:
 * - a value, never an expression or a comment: no `var.` reference can be written for a secret;
 * - every attribute that is not computed is written, `name = null` where the answer has null, and a
 *   computed one only when the answer gives it a value (an optional+computed one left null is left out);
 * - a sensitive attribute is always written `null # sensitive`, whatever the answer holds;
 * - a deprecated attribute is never written; a deprecated block is, so the answer must leave it empty;
 * - a string holding a JSON object or array is written as `jsonencode(...)`;
 * - the answer is not checked against the schema beyond its type: the plan that follows validates it.
 * A null answer makes Terraform 1.14 panic on the first block type, so the answer is always an object.
 *
 * The rules (docs/decisions.md, "Generated configuration is what a user writes"), written once over
 * the schema DSL for every resource type (`configFromState`), give what a user writes and nothing
 * else, in a form that plans no change against the state it came from. By kind of value:
 * - computed-only attributes, the platform-assigned `id` and write-only values: null;
 * - secrets (sensitive arguments): null. A required one (or one of a required write-only pair), and a
 *   required value the platform never returns (`masked`), cannot be written: Terraform writes it as
 *   `null`, and the plan that follows refuses it at its path, naming it and its `_wo` twin (the
 *   warning this answer carries says so too, though Terraform 1.14 and 1.15 do not show it);
 * - defaulted: a value equal to the argument's default is null (an argument with a default is
 *   optional+computed on the wire, so Terraform leaves it out);
 * - chosen by the platform: an optional+computed argument without a default (an engine version, a
 *   token endpoint, a switch the platform sets when it is not given) is null, so the configuration
 *   pins nothing a user did not choose; planning keeps the platform's value. The exception is an
 *   argument the identity defaults from the provider (`providerDefault`: the account), written only
 *   where it differs from the provider's, so that an object of another account says so;
 * - normalised by the platform: a value whose validator knows how its documentation writes it
 *   (`written`: `High` for the platform's `high`, `72h` for `72h0m0s`) is written so;
 * - deprecated arguments and blocks: null or empty, their values moved into the field that replaces
 *   them (`readAs`, with its conversion), as an import reads them;
 * - a block element that sets nothing where the block says that means no element (`emptyMeansAbsent`);
 * - a nested attribute's objects (`attr.nested`): each by these rules, its computed inner values null;
 * - everything else as the state holds it, which is what the plan compares against.
 * A resource gives what the schema cannot know (`generatedConfig`, engine/contracts/resource.ts): the vdb
 * cluster's deprecated `private_region_id`, which is its `cloud_region` only when it is hybrid.
 */
import type { AttrDef, BlockDef, Fields } from '../../schema/define.js';
import { attrStep, formatPath, indexStep, keyStep, type AttributePath } from '../../schema/path.js';
import { fieldType, fromModel, plainToValue, toModel, valueToPlain } from '../../schema/model.js';
import { nestedAsBlock } from '../../schema/fields.js';
import { setEntry } from '../../schema/entries.js';
import { dedupeSetElements, isPlainObject, valueEquals } from '../../schema/value-ops.js';
import { saysNothing } from '../../schema/empty-string.js';
import { Unknown, type ObjectValue, type Value } from '../../schema/value.js';
import { Diagnostics } from '../diagnostics/index.js';
import type { IdentityDef } from '../contracts/index.js';
import type { EngineContext } from '../context/index.js';
import { isConfigurable, movedInto } from '../plan/index.js';

/** A required argument the generated configuration cannot give: the user sets it before planning. */
export interface ToComplete {
  readonly path: AttributePath;
  /** A secret (Terraform writes it `null # sensitive`), as opposed to a value the platform never returns. */
  readonly secret: boolean;
  /** It has a write-only twin, `<name>_wo`, which keeps it out of the plan and the state. */
  readonly writeOnlyTwin: boolean;
}

export interface GeneratedConfig {
  readonly config: ObjectValue;
  readonly toComplete: readonly ToComplete[];
}

/**
 * The configuration of an object, from its state, by the rules of the module comment. `fromProvider`:
 * the top-level arguments the provider's configuration gives a value (the account), with that value.
 */
export function configFromState(
  fields: Fields,
  state: ObjectValue,
  fromProvider: Readonly<Record<string, string | null>> = {},
): GeneratedConfig {
  const toComplete: ToComplete[] = [];
  const current = inCurrentForm(fields, state);
  const config = configLevel(fields, current, [], toComplete);
  for (const [name, value] of Object.entries(fromProvider)) {
    const held = current[name] ?? null;
    if (name in config && typeof held === 'string' && held !== '' && held !== value) config[name] = held;
  }
  return { config, toComplete };
}

/** The configuration of an object Terraform sent no state for (Terraform 1.14.0): every argument unset. */
export function unsetConfig(fields: Fields): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, def] of Object.entries(fields))
    out[name] = def.kind === 'attr' ? null : def.nesting === 'single' || def.nesting === 'group' ? null : [];
  return out;
}

function configLevel(fields: Fields, state: ObjectValue, at: AttributePath, toComplete: ToComplete[]): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, def] of Object.entries(fields)) {
    const here = [...at, attrStep(name)];
    const v = state[name] ?? null;
    if (def.kind === 'block') out[name] = configBlock(def, v, here, toComplete);
    else out[name] = configAttribute(def, v, here, toComplete);
  }
  return out;
}

function configAttribute(def: AttrDef<unknown>, v: Value, here: AttributePath, toComplete: ToComplete[]): Value {
  const o = def.options;
  if (!isConfigurable(def) || o.platformAssigned === true || o.writeOnly) return null;
  const twinRequired = o.writeOnlyTwin?.required === true;
  if (o.sensitive) {
    if (o.required || twinRequired) toComplete.push({ path: here, secret: true, writeOnlyTwin: twinRequired });
    return null;
  }
  if (v === null || v instanceof Unknown) {
    if (o.required) toComplete.push({ path: here, secret: false, writeOnlyTwin: false });
    return null;
  }
  if (o.deprecated !== undefined) return null;
  if (o.default !== undefined && valueEquals(def.type.cty, v, plainToValue(def.type.cty, o.default))) return null;
  if (o.computed) return null;
  // A nested attribute's inner attributes are written by the same rules: its computed ones are null.
  const nested = nestedAsBlock(def);
  if (nested !== undefined) return configNested(nested, v, here, toComplete);
  return writtenForm(def, v);
}

/** A nested attribute's objects, each by the rules of a block's element; a map's by key. */
function configNested(nested: BlockDef<Fields>, v: Value, here: AttributePath, toComplete: ToComplete[]): Value {
  if (nested.nesting !== 'map') return configBlock(nested, v, here, toComplete);
  const out: ObjectValue = {};
  for (const [key, e] of Object.entries(v as ObjectValue))
    setEntry(
      out,
      key,
      e === null ? null : configLevel(nested.fields, e as ObjectValue, [...here, keyStep(key)], toComplete),
    );
  return out;
}

/** The value in the spelling its validators' documentation shows, where one of them knows it (`written`). */
function writtenForm(def: AttrDef<unknown>, v: Value): Value {
  for (const validator of def.options.validate ?? []) {
    if (!validator.written) continue;
    const written = validator.written(valueToPlain(v));
    if (written !== undefined) return plainToValue(def.type.cty, written);
  }
  return v;
}

function configBlock(def: BlockDef<Fields>, v: Value, here: AttributePath, toComplete: ToComplete[]): Value {
  const single = def.nesting === 'single' || def.nesting === 'group';
  if (def.options.deprecated !== undefined || v === null || v instanceof Unknown) return single ? null : [];
  if (single) return configLevel(def.fields, v as ObjectValue, here, toComplete);
  const elements = (v as ObjectValue[]).map((e, i) => {
    // A set element has no path of its own: what it lacks is named at the block.
    const found: ToComplete[] = [];
    const config = configLevel(def.fields, e, def.nesting === 'list' ? [...here, indexStep(i)] : here, found);
    return { config, found };
  });
  const kept = def.options.emptyMeansAbsent ? elements.filter((e) => !setsNothing(def.fields, e.config)) : elements;
  for (const e of kept) toComplete.push(...e.found);
  const configs = kept.map((e) => e.config);
  const type = fieldType(def);
  return type.kind === 'set' ? dedupeSetElements(type.element, configs) : configs;
}

/** Whether a generated block element sets nothing: every field null or empty (defaults are null by now). */
function setsNothing(fields: Fields, element: ObjectValue): boolean {
  return Object.entries(fields).every(([name, def]) => saysNothing(def, element[name] ?? null));
}

/**
 * The state with what it holds in deprecated fields moved into the fields that replace them
 * (`readAs`), at every depth: the form an import reads.
 */
export function inCurrentForm(fields: Fields, state: ObjectValue): ObjectValue {
  const out: ObjectValue = { ...state };
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind !== 'block') continue;
    const v = out[name] ?? null;
    if (Array.isArray(v)) out[name] = v.map((e) => (isPlainObject(e) ? inCurrentForm(def.fields, e) : e));
    else if (isPlainObject(v)) out[name] = inCurrentForm(def.fields, v);
  }
  for (const [name, def] of Object.entries(fields)) {
    const readAs = def.options.readAs;
    const v = out[name] ?? null;
    if (!readAs || saysNothing(def, v) || v instanceof Unknown) continue;
    const into = fields[readAs.field]!;
    out[readAs.field] = movedInto(into, out[readAs.field] ?? null, v, readAs.convert);
    out[name] = def.kind === 'block' ? [] : null;
  }
  return out;
}

/** The engine's part for GenerateResourceConfig. */
export class ResourceConfigGeneration<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  /** The arguments the identity defaults from the configured provider, with the provider's values. */
  private fromProvider(identity: IdentityDef<Fields, C> | undefined): Record<string, string | null> {
    const client = this.ctx.client;
    if (identity === undefined || client === undefined) return {};
    const out: Record<string, string | null> = {};
    for (const [name, a] of Object.entries(identity.attributes))
      if (a.providerDefault) out[a.from ?? name] = a.providerDefault(client);
    return out;
  }

  /**
   * The configuration of an object of `typeName` from its state; null when Terraform sent none
   * (1.14.0), answered with every argument unset and a warning saying why.
   */
  generateResourceConfig(typeName: string, state: ObjectValue | null): { config: ObjectValue; diags: Diagnostics } {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return { config: {}, diags };
    const fields = r.schema.fields;
    if (state === null) {
      diags.warning(
        `No configuration written for ${typeName}`,
        'Terraform sent no object to write the configuration of (Terraform 1.14.0 sends none; 1.14.1 and later ' +
          'do), so every argument is left unset. Fill it in, or generate it again with a later Terraform.',
      );
      return { config: unsetConfig(fields), diags };
    }
    const generated = configFromState(fields, state, this.fromProvider(r.identity));
    if (generated.toComplete.length > 0) {
      // The object's id names it in the warning, unless the schema holds it secret.
      const idDef = fields.id;
      const id = idDef?.kind === 'attr' && !idDef.options.sensitive ? state.id : null;
      diags.warning(...completionNote(typeName, typeof id === 'string' ? id : '', generated.toComplete));
    }
    const instead = r.generatedConfig?.(toModel(fields, state)) ?? {};
    return { config: fromModel(fields, instead, generated.config), diags };
  }
}

/** The warning that says what a generated configuration lacks and how to set it. */
function completionNote(typeName: string, objectId: string, lacking: readonly ToComplete[]): [string, string] {
  const id = objectId !== '' ? ` ${JSON.stringify(objectId)}` : '';
  const named = (list: readonly ToComplete[], suffix = '') => list.map((t) => `\`${formatPath(t.path)}${suffix}\``);
  const secrets = lacking.filter((t) => t.secret);
  const twins = secrets.filter((t) => t.writeOnlyTwin);
  const plain = secrets.filter((t) => !t.writeOnlyTwin);
  const hidden = lacking.filter((t) => !t.secret);
  const parts: string[] = [];
  if (twins.length > 0)
    parts.push(
      `${joinAnd(named(twins, '_wo'))} (write-only, Terraform 1.11 and later: from a variable, kept out of the ` +
        `plan and the state, and the import then changes nothing) or ${joinAnd(named(twins), 'or')}`,
    );
  if (plain.length > 0) parts.push(joinAnd(named(plain)));
  if (hidden.length > 0) parts.push(joinAnd(named(hidden)));
  const what = [
    secrets.length > 0 ? 'its secrets (Terraform writes each one as `null # sensitive`)' : '',
    hidden.length > 0 ? 'what the platform does not return (written as `null`)' : '',
  ].filter((x) => x !== '');
  return [
    'Generated configuration to complete',
    `The configuration written for ${typeName}${id} cannot hold ${what.join(' nor ')}. ` +
      `Before planning, set ${parts.join('; and ')}.`,
  ];
}

function joinAnd(items: readonly string[], word = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}
