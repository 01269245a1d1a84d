/**
 * The harness's models (./harness.ts): plain JavaScript objects of a schema, as a test writes and reads
 * them, to and from the engine's values. A model the harness returns holds every attribute and block
 * of its schema; a number is a JS number where a float64 holds it exactly and a `Decimal` where not; a
 * set is an array; a value not known until apply is `UNKNOWN`. A model a test gives may leave out what
 * it does not set (null; no blocks), may give a number as a bigint, and may hold `UNKNOWN` where
 * Terraform would not know a value yet. What does not fit the schema is refused at its path.
 */
import {
  blockShapeProblem,
  impliedType,
  type SchemaBlock,
  type SchemaNestedBlock,
  type ShapeRules,
} from '../schema/block.js';
import { BOOL, DYNAMIC, NUMBER, objectOf, STRING, tupleOf, type CtyType } from '../schema/cty-type.js';
import { setEntry } from '../schema/entries.js';
import { numberFromBigInt } from '../schema/number.js';
import { attrStep, formatPath, indexStep, keyStep, type AttributePath } from '../schema/path.js';
import { Decimal, DynamicValue, UNKNOWN, Unknown, type ObjectValue, type Value } from '../schema/value.js';
import { dedupeSetElements, nfc } from '../schema/value-ops.js';

/** An object of a schema, as the harness takes and returns it. */
export type HarnessModel = Record<string, any>;

/** A model that does not fit its schema: where, and Terraform's words for what is wrong. */
export class ModelError extends Error {
  constructor(
    readonly summary: string,
    readonly detail: string,
    readonly path: AttributePath,
  ) {
    super(`${summary}: ${detail}`);
  }
}

/** What a configuration must keep to (Terraform's decoder sees to it): its blocks' item counts. */
const CONFIG_SHAPE: ShapeRules = { itemCounts: true, noNullElements: false, known: false };
/** What a state must keep to: every value known, no collection holding a null element. */
const STATE_SHAPE: ShapeRules = { itemCounts: false, noNullElements: true, known: true };

/** A configuration model → its object value; throws ModelError. */
export function configValue(block: SchemaBlock, model: unknown): ObjectValue {
  const v = blockValue(block, model, []);
  const problem = blockShapeProblem(block, v, CONFIG_SHAPE);
  if (problem) throw new ModelError('Invalid configuration', `${problem.message}.`, problem.path);
  return v;
}

/** A state model (one the harness returned, or one a test wrote) → its object value; throws ModelError. */
export function stateValue(block: SchemaBlock, model: unknown): ObjectValue {
  const v = blockValue(block, model, []);
  const problem = blockShapeProblem(block, v, STATE_SHAPE);
  if (problem) throw new ModelError('Invalid state', `${problem.message}.`, problem.path);
  return v;
}

/** A value of `type` from its plain form; throws ModelError. */
export function typedValue(type: CtyType, plain: unknown, path: AttributePath = []): Value {
  if (plain instanceof Unknown) return plain;
  if (plain === undefined || plain === null) return null;
  switch (type.kind) {
    case 'string':
      if (typeof plain === 'string') return nfc(plain);
      break;
    case 'bool':
      if (typeof plain === 'boolean') return plain;
      break;
    case 'number':
      if (typeof plain === 'number' && Number.isFinite(plain)) return plain;
      if (typeof plain === 'bigint') return numberFromBigInt(plain);
      if (plain instanceof Decimal) return plain;
      break;
    case 'list':
    case 'set':
      if (Array.isArray(plain)) {
        const elements = plain.map((e, i) => typedValue(type.element, e, [...path, indexStep(i)]));
        return type.kind === 'set' ? dedupeSetElements(type.element, elements) : elements;
      }
      break;
    case 'tuple':
      if (Array.isArray(plain) && plain.length === type.elements.length)
        return type.elements.map((t, i) => typedValue(t, plain[i], [...path, indexStep(i)]));
      break;
    case 'map':
      if (isRecord(plain)) {
        const out: ObjectValue = {};
        for (const [k, e] of Object.entries(plain))
          setEntry(out, k, typedValue(type.element, e, [...path, keyStep(k)]));
        return out;
      }
      break;
    case 'object':
      if (isRecord(plain)) {
        refuseOthers(plain, Object.keys(type.attributes), path, 'attribute');
        const out: ObjectValue = {};
        for (const [k, t] of Object.entries(type.attributes))
          setEntry(out, k, typedValue(t, plain[k], [...path, attrStep(k)]));
        return out;
      }
      break;
    case 'dynamic':
      return dynamicOf(plain, path);
  }
  throw mismatch(type, plain, path);
}

/** An engine value → its plain form: every unknown is `UNKNOWN`, a dynamic value is its value. */
export function plainOf(v: Value): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Decimal) return v;
  if (v instanceof Unknown) return UNKNOWN;
  if (v instanceof DynamicValue) return plainOf(v.value);
  if (Array.isArray(v)) return v.map(plainOf);
  const out: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) setEntry(out, k, plainOf(e));
  return out;
}

/** An object value of a schema → its model. */
export const modelOf = (v: ObjectValue): HarnessModel => plainOf(v) as HarnessModel;

/** A block's object value from its model: attributes left out are null, blocks left out are none. */
function blockValue(block: SchemaBlock, model: unknown, path: AttributePath): ObjectValue {
  if (!isRecord(model)) throw mismatch(impliedType(block), model, path);
  refuseOthers(model, [...Object.keys(block.attributes), ...Object.keys(block.blockTypes)], path, 'argument');
  const out: ObjectValue = {};
  for (const [name, attribute] of Object.entries(block.attributes))
    out[name] = typedValue(attribute.type, model[name], [...path, attrStep(name)]);
  for (const [name, nb] of Object.entries(block.blockTypes))
    out[name] = nestedValue(nb, model[name], [...path, attrStep(name)]);
  return out;
}

function nestedValue(nb: SchemaNestedBlock, model: unknown, path: AttributePath): Value {
  if (model instanceof Unknown) return model;
  if (model === undefined || model === null) {
    if (nb.nesting === 'single') return null;
    if (nb.nesting === 'group') return blockValue(nb.block, {}, path);
    return nb.nesting === 'map' ? {} : [];
  }
  switch (nb.nesting) {
    case 'single':
    case 'group':
      return blockValue(nb.block, model, path);
    case 'list':
    case 'set': {
      if (!Array.isArray(model)) throw new ModelError('Invalid block', `The ${nb.typeName} blocks are an array.`, path);
      // The elements of a set are not addressed one by one: a path stops at the set.
      const elements = model.map((e, i) =>
        blockValue(nb.block, e, nb.nesting === 'list' ? [...path, indexStep(i)] : path),
      );
      return nb.nesting === 'set' ? dedupeSetElements(impliedType(nb.block), elements) : elements;
    }
    case 'map': {
      if (!isRecord(model)) throw new ModelError('Invalid block', `The ${nb.typeName} blocks are an object.`, path);
      const out: ObjectValue = {};
      for (const [k, e] of Object.entries(model)) setEntry(out, k, blockValue(nb.block, e, [...path, keyStep(k)]));
      return out;
    }
  }
}

/** A value at a `dynamic` position: its type as the plain form shows it (a tuple for an array). */
function dynamicOf(plain: unknown, path: AttributePath): Value {
  if (plain instanceof DynamicValue) return plain;
  const type = typeOfPlain(plain, path);
  return new DynamicValue(type, typedValue(type, plain, path));
}

function typeOfPlain(plain: unknown, path: AttributePath): CtyType {
  if (plain === undefined || plain === null || plain instanceof Unknown) return DYNAMIC;
  if (typeof plain === 'string') return STRING;
  if (typeof plain === 'boolean') return BOOL;
  if (typeof plain === 'number' || typeof plain === 'bigint' || plain instanceof Decimal) return NUMBER;
  if (Array.isArray(plain)) return tupleOf(plain.map((e, i) => typeOfPlain(e, [...path, indexStep(i)])));
  if (isRecord(plain))
    return objectOf(
      Object.fromEntries(Object.entries(plain).map(([k, e]) => [k, typeOfPlain(e, [...path, attrStep(k)])])),
    );
  throw new ModelError('Invalid value', `A ${typeof plain} has no Terraform type.`, path);
}

/** Terraform's "Unsupported argument": a name the schema does not have (a typo in a test, most often). */
function refuseOthers(model: Record<string, unknown>, names: readonly string[], path: AttributePath, what: string) {
  for (const key of Object.keys(model))
    if (!names.includes(key) && model[key] !== undefined)
      throw new ModelError(
        `Unsupported ${what}`,
        `An ${what} named "${key}" is not expected here${names.length > 0 ? `; there are ${names.join(', ')}` : ''}.`,
        [...path, attrStep(key)],
      );
}

function mismatch(type: CtyType, plain: unknown, path: AttributePath): ModelError {
  const given = Array.isArray(plain) ? 'an array' : plain instanceof Unknown ? 'UNKNOWN' : `a ${typeof plain}`;
  const at = path.length > 0 ? ` for ${formatPath(path)}` : '';
  return new ModelError(
    'Incorrect value type',
    `Inappropriate value${at}: ${wanted(type)} is required, not ${given}.`,
    path,
  );
}

function wanted(type: CtyType): string {
  switch (type.kind) {
    case 'list':
    case 'set':
    case 'tuple':
      return `a ${type.kind} (an array)`;
    case 'map':
    case 'object':
      return `${type.kind === 'map' ? 'a map' : 'an object'} (a plain object)`;
    default:
      return `a ${type.kind}`;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
