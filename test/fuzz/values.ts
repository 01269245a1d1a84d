/**
 * fast-check arbitraries for values that fit a schema: configurations as Terraform sends them
 * (computed-only attributes null, nested blocks within their item limits, some unknowns) and states
 * (every attribute may be set, all known). Strings are drawn partly from the values the schema's own
 * validators name (`one of \`a\`, \`b\``) so that generated configurations get past validation often
 * enough to reach the planner.
 */
import fc from 'fast-check';
import { impliedType, type SchemaBlock, type SchemaNestedBlock } from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import type { FieldDef, Fields } from '../../packages/framework/src/schema/define.js';
import { parseNumber } from '../../packages/framework/src/schema/number.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import { dedupeSetElements } from '../../packages/framework/src/schema/value-ops.js';

export type ValueMode = 'config' | 'state';

/** Values a field's validators or default mention: good candidates for getting past validation. */
function hintsOf(def: FieldDef | undefined): Value[] {
  if (def?.kind !== 'attr') return [];
  const hints: Value[] = [];
  if (
    def.options.default !== undefined &&
    (typeof def.options.default === 'string' || typeof def.options.default === 'number')
  )
    hints.push(def.options.default);
  for (const v of def.options.validate ?? []) {
    for (const m of v.description.matchAll(/`([^`]*)`/g)) hints.push(m[1]!);
    const range = /from (-?\d+) to (-?\d+)/.exec(v.description);
    if (range) hints.push(Number(range[1]), Number(range[2]));
  }
  return hints;
}

const PLAUSIBLE_STRINGS = [
  '',
  ' ',
  'a',
  'name-1',
  'ops@example.com',
  'https://example.com/hook',
  '00000000-0000-0000-0000-000000000000',
  '10.0.0.0/8',
  '2026-01-01T00:00:00Z',
  '{"a":1}',
  'x'.repeat(300),
  'ünïcödé ✓',
];

const numberArb: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -5, max: 100 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
  fc.constantFrom('0.1', '18446744073709551617', '-9007199254740993', '1e-7').map(parseNumber),
);

/** A known-or-null (and, with `unknowns`, sometimes unknown) value of `type`. */
export function valueArb(
  type: CtyType,
  opts: { unknowns: boolean; nulls: boolean; hints?: Value[] },
  depth = 0,
): fc.Arbitrary<Value> {
  const known = knownArb(type, opts, depth);
  return fc.oneof(
    { weight: 8, arbitrary: known },
    ...(opts.nulls ? [{ weight: 1, arbitrary: fc.constant<Value>(null) }] : []),
    ...(opts.unknowns ? [{ weight: 1, arbitrary: fc.constant<Value>(UNKNOWN) }] : []),
  );
}

function knownArb(
  type: CtyType,
  opts: { unknowns: boolean; nulls: boolean; hints?: Value[] },
  depth: number,
): fc.Arbitrary<Value> {
  const inner = { unknowns: opts.unknowns, nulls: opts.nulls };
  const maxLength = depth > 1 ? 1 : 3;
  const hinted = (base: fc.Arbitrary<Value>, ok: (h: Value) => boolean) => {
    const hints = (opts.hints ?? []).filter(ok);
    return hints.length > 0
      ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...hints) }, { weight: 1, arbitrary: base })
      : base;
  };
  switch (type.kind) {
    case 'string':
      return hinted(
        fc
          .oneof(
            fc.constantFrom(...PLAUSIBLE_STRINGS),
            fc.string({ maxLength: 16 }),
            fc.string({ unit: 'grapheme', maxLength: 8 }),
          )
          .map((s) => s.normalize('NFC')),
        (h) => typeof h === 'string',
      );
    case 'number':
      return hinted(numberArb, (h) => typeof h === 'number');
    case 'bool':
      return fc.boolean();
    case 'list':
      return fc.array(valueArb(type.element, inner, depth + 1), { maxLength });
    case 'set':
      return fc
        .array(valueArb(type.element, inner, depth + 1), { maxLength })
        .map((elems) => dedupeSetElements(type.element, elems));
    case 'map':
      return fc.dictionary(fc.string({ maxLength: 6 }), valueArb(type.element, inner, depth + 1), {
        maxKeys: maxLength,
      }) as fc.Arbitrary<Value>;
    case 'object': {
      const shape: Record<string, fc.Arbitrary<Value>> = {};
      for (const [k, t] of Object.entries(type.attributes)) shape[k] = valueArb(t, inner, depth + 1);
      return fc.record(shape) as fc.Arbitrary<Value>;
    }
    default:
      // No schema here declares dynamic or tuple attributes.
      return fc.constant(null);
  }
}

/**
 * An object value of `block`. Config mode: what Terraform sends as configuration (computed-only
 * attributes null, required ones set or unknown). State mode: every attribute may hold a known value.
 * `fields` (the declaration) only supplies hints; it may be absent.
 */
export function blockValueArb(block: SchemaBlock, mode: ValueMode, fields?: Fields): fc.Arbitrary<ObjectValue> {
  // Built once per block: the fuzzer asks for the same schemas a hundred thousand times.
  const cached = blockArbCache.get(block)?.get(mode);
  if (cached) return cached;
  const arb = buildBlockValueArb(block, mode, fields);
  if (!blockArbCache.has(block)) blockArbCache.set(block, new Map());
  blockArbCache.get(block)!.set(mode, arb);
  return arb;
}

const blockArbCache = new WeakMap<SchemaBlock, Map<ValueMode, fc.Arbitrary<ObjectValue>>>();

function buildBlockValueArb(block: SchemaBlock, mode: ValueMode, fields?: Fields): fc.Arbitrary<ObjectValue> {
  const unknowns = mode === 'config';
  const shape: Record<string, fc.Arbitrary<Value>> = {};
  for (const [name, a] of Object.entries(block.attributes)) {
    const value = valueArb(a.type, { unknowns, nulls: true, hints: hintsOf(fields?.[name]) });
    if (mode === 'state') shape[name] = fc.oneof(value, fc.constant(null));
    else if (a.computed && !a.optional) shape[name] = fc.constant(null);
    else if (a.required)
      shape[name] = fc.oneof(
        { weight: 9, arbitrary: value.filter((v) => v !== null) },
        { weight: 1, arbitrary: fc.constant<Value>(UNKNOWN) },
      );
    else shape[name] = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: value });
  }
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const def = fields?.[name];
    shape[name] = nestedBlockArb(nb, mode, def?.kind === 'block' ? def.fields : undefined);
  }
  return fc.record(shape) as fc.Arbitrary<ObjectValue>;
}

function nestedBlockArb(nb: SchemaNestedBlock, mode: ValueMode, fields: Fields | undefined): fc.Arbitrary<Value> {
  const item = blockValueArb(nb.block, mode, fields);
  switch (nb.nesting) {
    case 'single':
      return nb.minItems > 0 ? item : fc.oneof(fc.constant(null), item);
    case 'group':
      return item;
    case 'list':
    case 'set': {
      const maxLength = nb.maxItems > 0 ? nb.maxItems : nb.minItems + 3;
      const items = fc.array(item, { minLength: nb.minItems, maxLength: Math.min(maxLength, nb.minItems + 3) });
      // A dynamic block over an unknown collection arrives as an unknown list or set.
      const known = nb.nesting === 'set' ? items.map((xs) => dedupeSetElements(impliedType(nb.block), xs)) : items;
      return mode === 'config'
        ? fc.oneof({ weight: 9, arbitrary: known }, { weight: 1, arbitrary: fc.constant<Value>(UNKNOWN) })
        : known;
    }
    case 'map':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), item, { maxKeys: 3 }) as fc.Arbitrary<Value>;
  }
}
