/**
 * Merging what the API says with what Terraform already holds, written once for every resource:
 * - after apply, unknowns take the API's value, and a value Terraform knew in the plan stays as planned
 *   where the API stored the same (or what the attribute's `equal` takes for the same); where it stored
 *   another, the state holds what it stored, and Terraform reports the inconsistent result at that path
 *   (docs/protocol.md, "The apply result");
 * - after read, values the API reports in another but equivalent form keep the prior form, and
 *   values the API masks or never returns keep the prior value
 *   (docs/api/sec.md, "Values the platform normalises"; docs/api/sec.md, "Secrets on reads");
 * - after a lost create answer, whether an object found holds what the plan asked for.
 */
import type { AttrDef, BlockDef, Fields } from '../../schema/define.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../../schema/value.js';
import { setEntry } from '../../schema/entries.js';
import { saysNothing } from '../../schema/empty-string.js';
import { isUnsetValue, sameFieldValue as sameValue } from '../../schema/model.js';
import { fieldIndex, fieldList, nestedAsBlock, type NamedField } from '../../schema/fields.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import type { CtyType } from '../../schema/cty-type.js';
import { inCurrentForm, isPlatformSetting, movedInto, sameSetting } from './platform-settings.js';

export interface Mismatch {
  path: string;
}

/**
 * The apply result: planned where known and stored alike, the API's value where the plan said "known
 * after apply" or where it stored another value (each such path in `mismatches`).
 */
export function finalizeApplied(
  fields: Fields,
  planned: ObjectValue,
  result: ObjectValue,
  mismatches: Mismatch[],
  where = '',
): ObjectValue {
  const out: ObjectValue = {};
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const p = planned[name] ?? null;
    const r = result[name] ?? null;
    if (def.kind === 'attr') {
      const nested = p === null || p instanceof Unknown ? undefined : nestedAsBlock(def);
      if (p instanceof Unknown) out[name] = stripUnknown(r);
      // A nested attribute with values known only after apply: the API's where the plan had none.
      else if (nested !== undefined && !isWhollyKnown(def.type.cty, p))
        out[name] = finalizeBlock(nested, p, r, mismatches, pathOf(where, name));
      else if (!(r instanceof Unknown) && !sameValue(def, p, r)) {
        mismatches.push({ path: pathOf(where, name) });
        // What the platform holds, not what the plan promised: Terraform then reports the inconsistent
        // result at this path, as it does of any provider, instead of a plan that never settles. What
        // the API never returns as it is (masked, write-only, the provider's own settings) keeps the plan's.
        out[name] = storedAsPlanned(def) ? p : r;
      } else out[name] = p;
    } else out[name] = finalizeBlock(def, p, r, mismatches, pathOf(where, name));
  }
  return out;
}

/**
 * Whether the API never returns the attribute's value as it is, so the state keeps the plan's: a value
 * it masks or shows once, a write-only one and its twins (a secret given write-only is null in the
 * state whatever the platform holds), the provider's own settings.
 */
function storedAsPlanned(def: AttrDef<unknown>): boolean {
  const o = def.options;
  return notReturnedAsIs(def) || o.providerOnly === true || o.writeOnlyTwin !== undefined;
}

/** A value the platform does not report as it was given: masked, shown once, write-only, a write-only twin. */
function notReturnedAsIs(def: AttrDef<unknown>): boolean {
  const o = def.options;
  return o.masked === true || o.oneTime === true || o.writeOnly === true || o.twinOf !== undefined;
}

/** A field's path in a mismatch: `block[0].name`. */
const pathOf = (where: string, name: string): string => (where ? `${where}.${name}` : name);

function finalizeBlock(
  def: BlockDef<Fields>,
  planned: Value,
  result: Value,
  mismatches: Mismatch[],
  path: string,
): Value {
  if (planned === null) return null;
  if (planned instanceof Unknown) return stripUnknown(result);
  if (def.nesting === 'single' || def.nesting === 'group') {
    return finalizeApplied(
      def.fields,
      planned as ObjectValue,
      objectOrNull(result) ?? (planned as ObjectValue),
      mismatches,
      path,
    );
  }
  if (def.nesting === 'map') {
    const re = objectOrNull(result) ?? {};
    const out: ObjectValue = {};
    for (const [k, e] of Object.entries(planned as ObjectValue)) {
      const r = Object.hasOwn(re, k) ? re[k]! : e;
      const at = `${path}[${JSON.stringify(k)}]`;
      setEntry(
        out,
        k,
        e instanceof Unknown
          ? stripUnknown(r)
          : finalizeApplied(def.fields, e as ObjectValue, objectOrNull(r) ?? (e as ObjectValue), mismatches, at),
      );
    }
    return out;
  }
  const pe = planned as ObjectValue[];
  const re = Array.isArray(result) ? (result as ObjectValue[]) : [];
  if (def.nesting === 'list')
    return pe.map((e, i) =>
      e instanceof Unknown
        ? stripUnknown(re[i] ?? null)
        : finalizeApplied(def.fields, e, re[i] ?? e, mismatches, `${path}[${i}]`),
    );
  // Set elements have no order: pair each planned element with the result element that agrees
  // with everything the plan already knew.
  const used = new Set<number>();
  return pe.map((e) => {
    const i = re.findIndex((r, j) => !used.has(j) && agreesWithKnown(def.fields, e, r));
    if (i >= 0) used.add(i);
    return finalizeApplied(def.fields, e, i >= 0 ? re[i]! : e, mismatches, path);
  });
}

function agreesWithKnown(fields: Fields, planned: ObjectValue, result: ObjectValue): boolean {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const p = planned[name] ?? null;
    if (p instanceof Unknown || def.kind !== 'attr' || def.options.masked) continue;
    if (!sameValue(def, p, result[name] ?? null)) return false;
  }
  return true;
}

/**
 * The paths where an object found on the platform differs from a create's plan, among the settings
 * the plan knows and the platform reports: not secrets it masks or returns only once, not write-only
 * values or the provider's own settings, not `later` (top-level attributes a step after the create
 * sets). Set elements pair with any found element that agrees; a found value left undefined by the
 * lookup's model means "not reported" and agrees.
 */
export function differencesFromPlan(
  fields: Fields,
  planned: ObjectValue,
  found: ObjectValue,
  later: ReadonlySet<string> = new Set(),
  where = '',
): string[] {
  const out: string[] = [];
  for (const [name, def] of Object.entries(fields)) {
    if (!isPlatformSetting(def) || later.has(name)) continue;
    const p = planned[name] ?? null;
    const f = found[name] ?? null;
    const path = where ? `${where}.${name}` : name;
    if (p instanceof Unknown) continue;
    if (def.kind === 'attr') {
      if (notReturnedAsIs(def)) continue;
      if (!sameValue(def, p, f)) out.push(path);
      continue;
    }
    out.push(...blockDifferences(def, p, f, path));
  }
  return out;
}

function blockDifferences(def: BlockDef<Fields>, planned: Value, found: Value, path: string): string[] {
  if (sameValue(def, planned, found)) return [];
  if (def.nesting === 'single' || def.nesting === 'group') {
    const p = objectOrNull(planned);
    const f = objectOrNull(found);
    if (p === null || f === null) return sameValue(def, planned, found) ? [] : [path];
    return differencesFromPlan(def.fields, p, f, new Set(), path);
  }
  const pe = Array.isArray(planned) ? (planned as ObjectValue[]) : [];
  const fe = Array.isArray(found) ? (found as ObjectValue[]) : [];
  if (pe.length !== fe.length) return [path];
  if (def.nesting === 'list')
    return pe.flatMap((e, i) => differencesFromPlan(def.fields, e, fe[i]!, new Set(), `${path}[${i}]`));
  const used = new Set<number>();
  for (const e of pe) {
    const i = fe.findIndex((f, j) => !used.has(j) && differencesFromPlan(def.fields, e, f).length === 0);
    if (i < 0) return [path];
    used.add(i);
  }
  return [];
}

/** The read result: the API's view, in the prior state's form wherever they mean the same. */
export function reconcileRead(fields: Fields, prior: ObjectValue | null, given: ObjectValue): ObjectValue {
  const index = fieldIndex(fields);
  const fresh = prior === null || index.readAs.length === 0 ? given : inPriorForm(fields, prior, given);
  const out: ObjectValue = {};
  const list = index.all;
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const p = prior === null ? null : (prior[name] ?? null);
    const f = fresh[name] ?? null;
    out[name] = def.kind === 'attr' ? readAttribute(def, prior !== null, p, f) : reconcileBlock(def, p, f);
  }
  if (index.readAs.length > 0) readIntoCurrentForm(fields, index.readAs, prior, out);
  return out;
}

/** An attribute's value after a read: `p` the prior state's (`hasPrior`: there is one), `f` the platform's. */
function readAttribute(def: AttrDef<unknown>, hasPrior: boolean, p: Value, f: Value): Value {
  const o = def.options;
  let out: Value;
  // What the platform does not hold (a write-only twin's version, a provider setting) is the
  // prior state's at every depth: a read cannot know it, and a nested block is rebuilt from the answer.
  if (hasPrior && (o.twinOf !== undefined || o.providerOnly === true)) out = o.writeOnly ? null : p;
  // A secret the state does not hold was given write-only (or imported): a read never puts it there.
  else if (o.writeOnlyTwin && p === null) out = null;
  else if (o.masked && (f === null || f === '') && p !== null) out = p;
  else if (p !== null && sameValue(def, p, f)) out = p;
  // An argument left unset that the API reports empty stays unset: the configuration's form is the state's.
  else if (p === null && !o.required && isArgument(def) && (saysNothing(def, f) || isUnsetValue(def, f))) out = null;
  else out = stripUnknown(f);
  // A required argument is never null in a configuration, so not in a state either: what the
  // platform holds empty (or leaves out as empty) reads as empty, as generated configuration
  // then writes it. A value the platform does not return (masked, a secret) has no such form.
  if (out === null && o.required && !(o.masked || o.sensitive)) return emptyOf(def.type.cty);
  return out;
}

/** A deprecated field keeps what the platform reports only where the prior state uses it. */
function readIntoCurrentForm(
  fields: Fields,
  withReadAs: readonly NamedField[],
  prior: ObjectValue | null,
  out: ObjectValue,
): void {
  for (const { name, def } of withReadAs) {
    const readAs = def.options.readAs!;
    if (saysNothing(def, out[name] ?? null) || !saysNothing(def, prior?.[name] ?? null)) continue;
    const into = readAs.field;
    out[into] = movedInto(fields[into]!, out[into] ?? null, out[name]!, readAs.convert);
    out[name] = def.kind === 'block' ? [] : null;
  }
}

/** The empty value of a type that has one (`""`, `[]`, `{}`); null for the others. */
function emptyOf(type: CtyType): Value {
  if (type.kind === 'string') return '';
  if (type.kind === 'list' || type.kind === 'set') return [];
  return type.kind === 'map' ? {} : null;
}

/**
 * `fresh` with each deprecated field the prior state uses (its `readAs`) in that form again, where the
 * platform reports the same settings in the form that replaces it: a configuration in the deprecated
 * form reads back as written, whichever form the platform keeps.
 */
function inPriorForm(fields: Fields, prior: ObjectValue, fresh: ObjectValue): ObjectValue {
  let out = fresh;
  for (const { name, def } of fieldIndex(fields).readAs) {
    const readAs = def.options.readAs;
    if (!readAs) continue;
    const into = fields[readAs.field]!;
    const [p, pInto] = [prior[name] ?? null, prior[readAs.field] ?? null];
    const [f, fInto] = [fresh[name] ?? null, fresh[readAs.field] ?? null];
    if (saysNothing(def, p) || !saysNothing(def, f) || saysNothing(into, fInto) || p instanceof Unknown) continue;
    if (!sameSetting(into, movedInto(into, pInto, p, readAs.convert), fInto)) continue;
    out = { ...out, [name]: p, [readAs.field]: pInto };
  }
  return out;
}

function reconcileBlock(def: BlockDef<Fields>, prior: Value, fresh: Value): Value {
  if (def.nesting === 'single' || def.nesting === 'group') {
    const f = objectOrNull(fresh);
    return f ? reconcileRead(def.fields, objectOrNull(prior), f) : null;
  }
  const fe = Array.isArray(fresh) ? (fresh as ObjectValue[]) : [];
  const pe = Array.isArray(prior) ? (prior as ObjectValue[]) : [];
  if (def.nesting === 'list') return fe.map((e, i) => reconcileRead(def.fields, pe[i] ?? null, e));
  // Set elements have no index: pair each fresh element with a prior one that agrees on every
  // attribute the API reports faithfully.
  const used = new Set<number>();
  return fe.map((e) => {
    // Compared in the current form: a prior element in a deprecated form pairs with the same settings.
    const i = pe.findIndex(
      (p, j) =>
        !used.has(j) && agreesIgnoringMasked(def.fields, inCurrentForm(def.fields, p), inCurrentForm(def.fields, e)),
    );
    if (i >= 0) used.add(i);
    return reconcileRead(def.fields, i >= 0 ? pe[i]! : null, e);
  });
}

function agreesIgnoringMasked(fields: Fields, a: ObjectValue, b: ObjectValue): boolean {
  const list = fieldList(fields);
  for (let i = 0; i < list.length; i++) {
    const { name, def } = list[i]!;
    const x = a[name] ?? null;
    const y = b[name] ?? null;
    // Nested blocks agree element by element (another order of an unordered list inside is the same).
    const agree = def.kind === 'attr' ? def.options.masked === true || sameValue(def, x, y) : sameSetting(def, x, y);
    if (!agree) return false;
  }
  return true;
}

/** Anything still unknown after the API answered has no value: null. */
function stripUnknown(v: Value): Value {
  if (typeof v !== 'object' || v === null) return v;
  if (v instanceof Unknown) return null;
  if (Array.isArray(v)) return v.map(stripUnknown);
  if (v !== null && typeof v === 'object' && v.constructor === Object) {
    const out: ObjectValue = {};
    for (const [k, e] of Object.entries(v)) setEntry(out, k, stripUnknown(e));
    return out;
  }
  return v;
}

/** An attribute the user sets (not computed-only). */
function isArgument(def: AttrDef<unknown>): boolean {
  return def.options.required === true || def.options.optional === true || def.options.default !== undefined;
}
