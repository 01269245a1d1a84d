/**
 * Tables for the ports of Terraform's objchange logic (packages/framework/src/engine/checks). Several cases mirror
 * Terraform's own objchange_test.go / plan_valid_test.go / compatible_test.go tables.
 */
import { expect } from 'chai';
import type {
  Nesting,
  SchemaAttribute,
  SchemaBlock,
  SchemaNestedBlock,
} from '../../packages/framework/src/schema/block.js';
import { schemaAttribute } from '../support/schema-builders.js';
import {
  type CtyType,
  DYNAMIC,
  NUMBER,
  STRING,
  listOf,
  mapOf,
  setOf,
} from '../../packages/framework/src/schema/cty-type.js';
import {
  type Refinements,
  type Value,
  Decimal,
  DynamicValue,
  UNKNOWN,
  Unknown,
} from '../../packages/framework/src/schema/value.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { type CheckProblem, formatProblem } from '../../packages/framework/src/engine/checks/util.js';
import { assertObjectCompatible } from '../../packages/framework/src/engine/checks/object-compatible.js';
import { assertPlanValid } from '../../packages/framework/src/engine/checks/plan-valid.js';
import {
  checkApplyResult,
  checkPlannedState,
  checkReadResult,
  proposedNew,
} from '../../packages/framework/src/engine/checks/index.js';
import { plannedDataResourceObject } from '../../packages/framework/src/engine/checks/proposed-new.js';

// ---- schema builders -------------------------------------------------------------------------

type Flags = Partial<Pick<SchemaAttribute, 'required' | 'optional' | 'computed' | 'sensitive' | 'writeOnly'>>;

const attr = (name: string, type: CtyType, flags: Flags): SchemaAttribute => schemaAttribute(name, type, flags);

const req = (type: CtyType = STRING): Flags & { type: CtyType } => ({ type, required: true });
const opt = (type: CtyType = STRING): Flags & { type: CtyType } => ({ type, optional: true });
const comp = (type: CtyType = STRING): Flags & { type: CtyType } => ({ type, computed: true });
const optComp = (type: CtyType = STRING): Flags & { type: CtyType } => ({ type, optional: true, computed: true });

function block(
  attrs: Record<string, Flags & { type: CtyType }>,
  blocks: Record<string, [Nesting, SchemaBlock]> = {},
): SchemaBlock {
  const attributes: Record<string, SchemaAttribute> = {};
  for (const [name, { type, ...flags }] of Object.entries(attrs)) attributes[name] = attr(name, type, flags);
  const blockTypes: Record<string, SchemaNestedBlock> = {};
  for (const [typeName, [nesting, b]] of Object.entries(blocks)) {
    blockTypes[typeName] = { typeName, nesting, block: b, minItems: 0, maxItems: 0 };
  }
  return { attributes, blockTypes, description: '', descriptionKind: 'plain', deprecated: false };
}

const unknown = (r: Refinements): Unknown => new Unknown(r);

function expectValue(schema: SchemaBlock, got: Value, want: Value): void {
  const ok = valueEquals(impliedType(schema), got, want);
  expect(ok, `got ${JSON.stringify(got, replacer)}\nwant ${JSON.stringify(want, replacer)}`).to.equal(true);
}

function replacer(_k: string, v: unknown): unknown {
  if (v instanceof Unknown) return v.refinements ? { unknown: v.refinements } : '<unknown>';
  if (v instanceof Decimal) return `<decimal ${v.text}>`;
  return v;
}

/**
 * Expects exactly one problem per entry, in any order. An entry is a substring of the problem's
 * formatProblem text, or a list of substrings that must all appear in the same problem.
 */
function expectProblems(got: CheckProblem[], want: (string | string[])[]): void {
  const texts = got.map(formatProblem);
  expect(texts, texts.join('\n')).to.have.length(want.length);
  for (const w of want) {
    const parts = typeof w === 'string' ? [w] : w;
    expect(
      texts.some((t) => parts.every((part) => t.includes(part))),
      `missing ${JSON.stringify(w)} in:\n${texts.join('\n')}`,
    ).to.equal(true);
  }
}

// ---- shared schemas --------------------------------------------------------------------------

const inner = block({ a: opt(), c: optComp() });
const resource = block(
  { id: comp(), name: req(), desc: opt(), region: optComp(), size: opt(NUMBER) },
  {
    single: ['single', inner],
    group: ['group', inner],
    list: ['list', inner],
    set: ['set', inner],
    map: ['map', inner],
  },
);

/** A full resource value with defaults for everything not given. */
function res(v: Record<string, Value>): Record<string, Value> {
  return {
    id: null,
    name: 'n',
    desc: null,
    region: null,
    size: null,
    single: null,
    group: { a: null, c: null },
    list: [],
    set: [],
    map: {},
    ...v,
  };
}

// ---- proposedNew -----------------------------------------------------------------------------

describe('engine/checks proposedNew (objchange.ProposedNew)', () => {
  const cases: { name: string; schema: SchemaBlock; prior: Value; config: Value; want: Value }[] = [
    { name: 'config and prior both null stay null', schema: resource, prior: null, config: null, want: null },
    {
      name: 'create: computed attributes null, config copied',
      schema: resource,
      prior: null,
      config: res({ name: 'a', desc: 'd' }),
      want: res({ name: 'a', desc: 'd' }),
    },
    {
      name: 'update: computed and unset optional+computed keep prior, optional takes config',
      schema: resource,
      prior: res({ id: 'x', name: 'a', desc: 'old', region: 'eu', size: 1 }),
      config: res({ name: 'b', desc: null, size: 2 }),
      want: res({ id: 'x', name: 'b', desc: null, region: 'eu', size: 2 }),
    },
    {
      name: 'update: configured optional+computed wins over prior',
      schema: resource,
      prior: res({ id: 'x', region: 'eu' }),
      config: res({ region: 'us' }),
      want: res({ id: 'x', region: 'us' }),
    },
    {
      name: 'unknown config values pass through',
      schema: resource,
      prior: res({ id: 'x', name: 'a' }),
      config: res({ name: UNKNOWN, region: unknown({ notNull: true }) }),
      want: res({ id: 'x', name: UNKNOWN, region: UNKNOWN }),
    },
    {
      name: 'single block merges with prior; computed nested attr kept',
      schema: resource,
      prior: res({ single: { a: 'x', c: 'p' } }),
      config: res({ single: { a: 'y', c: null } }),
      want: res({ single: { a: 'y', c: 'p' } }),
    },
    {
      name: 'single block absent from config is null',
      schema: resource,
      prior: res({ single: { a: 'x', c: 'p' } }),
      config: res({}),
      want: res({}),
    },
    {
      name: 'group block keeps computed prior values when absent from config',
      schema: resource,
      prior: res({ group: { a: null, c: 'p' } }),
      config: res({}),
      want: res({ group: { a: null, c: 'p' } }),
    },
    {
      name: 'list blocks correlate by index; extra config elements taken as is',
      schema: resource,
      prior: res({ list: [{ a: 'x', c: 'p0' }] }),
      config: res({
        list: [
          { a: 'changed', c: null },
          { a: 'new', c: null },
        ],
      }),
      want: res({
        list: [
          { a: 'changed', c: 'p0' },
          { a: 'new', c: null },
        ],
      }),
    },
    {
      name: 'list blocks removed from config are gone',
      schema: resource,
      prior: res({
        list: [
          { a: 'x', c: 'p0' },
          { a: 'y', c: 'p1' },
        ],
      }),
      config: res({ list: [{ a: 'x', c: null }] }),
      want: res({ list: [{ a: 'x', c: 'p0' }] }),
    },
    {
      name: 'map blocks correlate by key',
      schema: resource,
      prior: res({ map: { k1: { a: 'x', c: 'p1' }, k2: { a: 'y', c: 'p2' } } }),
      config: res({ map: { k1: { a: 'x2', c: null }, k3: { a: 'z', c: null } } }),
      want: res({ map: { k1: { a: 'x2', c: 'p1' }, k3: { a: 'z', c: null } } }),
    },
    {
      name: 'set blocks: element matching on non-computed values gets its computed prior values',
      schema: resource,
      prior: res({
        set: [
          { a: 'beep', c: 'boop' },
          { a: 'blep', c: 'boot' },
        ],
      }),
      config: res({
        set: [
          { a: 'beep', c: null },
          { a: 'bosh', c: null },
        ],
      }),
      want: res({
        set: [
          { a: 'beep', c: 'boop' },
          { a: 'bosh', c: null },
        ],
      }),
    },
    {
      name: 'set blocks: configured optional+computed value does not match a different prior',
      schema: resource,
      prior: res({ set: [{ a: 'one', c: 'OK' }] }),
      config: res({ set: [{ a: 'one', c: 'other' }] }),
      want: res({ set: [{ a: 'one', c: 'other' }] }),
    },
    {
      name: 'set blocks: optional+computed filled from prior by required key (objchange_test "set without partial optional computed change")',
      schema: block({}, { multi: ['set', block({ opt: optComp(), req: req() })] }),
      prior: {
        multi: [
          { opt: 'one', req: 'one' },
          { opt: 'two', req: 'two' },
        ],
      },
      config: {
        multi: [
          { opt: null, req: 'one' },
          { opt: null, req: 'two' },
        ],
      },
      want: {
        multi: [
          { opt: 'one', req: 'one' },
          { opt: 'two', req: 'two' },
        ],
      },
    },
    {
      name: 'set blocks: nested list inside set element correlates (objchange_test "nested list in set")',
      schema: block({}, { foo: ['set', block({}, { bar: ['list', block({ baz: opt(), qux: optComp() })] })] }),
      prior: { foo: [{ bar: [{ baz: 'beep', qux: 'boop' }] }] },
      config: { foo: [{ bar: [{ baz: 'beep', qux: null }] }] },
      want: { foo: [{ bar: [{ baz: 'beep', qux: 'boop' }] }] },
    },
    {
      name: 'set blocks: nested set inside set element must match exactly',
      schema: block({}, { foo: ['set', block({}, { bar: ['set', block({ baz: opt(), qux: optComp() })] })] }),
      prior: { foo: [{ bar: [{ baz: 'beep', qux: 'boop' }] }] },
      config: { foo: [{ bar: [{ baz: 'beep', qux: null }] }] },
      want: { foo: [{ bar: [{ baz: 'beep', qux: null }] }] },
    },
    {
      name: 'set blocks: elements differing only by unknowns stay distinct',
      schema: block({}, { multi: ['set', block({ o: optComp() })] }),
      prior: null,
      config: { multi: [{ o: UNKNOWN }, { o: UNKNOWN }] },
      want: { multi: [{ o: UNKNOWN }, { o: UNKNOWN }] },
    },
    {
      name: 'set blocks: only the element still matching its configured value is correlated (objchange_test "set with partial optional computed change")',
      schema: block({}, { multi: ['set', block({ opt: opt(), cmp: optComp() })] }),
      prior: {
        multi: [
          { opt: 'one', cmp: 'OK' },
          { opt: 'two', cmp: 'OK' },
        ],
      },
      config: {
        multi: [
          { opt: 'one', cmp: null },
          { opt: 'replaced', cmp: null },
        ],
      },
      want: {
        multi: [
          { opt: 'one', cmp: 'OK' },
          { opt: 'replaced', cmp: null },
        ],
      },
    },
    {
      name: 'set blocks: correlation walks cty set order, so an exact config match claims the prior first',
      schema: block({}, { multi: ['set', block({ opt: opt(), cmp: optComp() })] }),
      prior: { multi: [{ opt: 'one', cmp: 'OK' }] },
      config: {
        multi: [
          { opt: 'one', cmp: null },
          { opt: 'one', cmp: 'OK' },
        ],
      },
      want: {
        multi: [
          { opt: 'one', cmp: 'OK' },
          { opt: 'one', cmp: null },
        ],
      },
    },
    {
      name: 'wholly unknown block (dynamic block, unknown for_each) passes through',
      schema: resource,
      prior: res({ list: [{ a: 'x', c: 'p' }] }),
      config: res({ list: UNKNOWN }),
      want: res({ list: UNKNOWN }),
    },
    {
      name: 'create with nested blocks: synthetic prior leaves computed nested attrs null',
      schema: resource,
      prior: null,
      config: res({ list: [{ a: 'x', c: null }], set: [{ a: 'y', c: null }], single: { a: 's', c: null } }),
      want: res({ list: [{ a: 'x', c: null }], set: [{ a: 'y', c: null }], single: { a: 's', c: null } }),
    },
  ];

  for (const c of cases) {
    it(c.name, () => expectValue(c.schema, proposedNew(c.schema, c.prior, c.config), c.want));
  }

  it('plannedDataResourceObject: unset computed attributes become unknown', () => {
    const ds = block({ id: comp(), name: opt(), region: optComp() }, { list: ['list', inner] });
    const got = plannedDataResourceObject(ds, { id: null, name: 'a', region: null, list: [{ a: 'x', c: null }] });
    expectValue(ds, got, { id: UNKNOWN, name: 'a', region: UNKNOWN, list: [{ a: 'x', c: UNKNOWN }] });
  });
});

// ---- assertPlanValid -------------------------------------------------------------------------

describe('engine/checks assertPlanValid (objchange.AssertPlanValid)', () => {
  const secret = block({
    id: comp(),
    name: opt(),
    token: { type: STRING, optional: true, sensitive: true },
    pw: { type: STRING, optional: true, writeOnly: true },
  });
  const cases: {
    name: string;
    schema: SchemaBlock;
    prior: Value;
    config: Value;
    planned: Value;
    problems: (string | string[])[];
  }[] = [
    {
      name: 'accepts the proposed value with computed attributes unknown',
      schema: resource,
      prior: null,
      config: res({ name: 'a', list: [{ a: 'x', c: null }] }),
      planned: res({ id: UNKNOWN, name: 'a', region: unknown({ notNull: true }), list: [{ a: 'x', c: UNKNOWN }] }),
      problems: [],
    },
    {
      name: 'accepts "prior value wins" for an equivalent configured value',
      schema: resource,
      prior: res({ id: 'x', name: 'ABC', desc: 'Hello' }),
      config: res({ name: 'abc', desc: 'hello' }),
      planned: res({ id: 'x', name: 'ABC', desc: 'Hello' }),
      problems: [],
    },
    {
      name: 'accepts optional+computed filled in when unset in config',
      schema: resource,
      prior: null,
      config: res({}),
      planned: res({ id: 'x', region: 'eu', group: { a: null, c: 'filled' } }),
      problems: [],
    },
    {
      name: 'accepts any change to a computed-only attribute',
      schema: resource,
      prior: res({ id: 'x' }),
      config: res({}),
      planned: res({ id: 'y' }),
      problems: [],
    },
    {
      name: 'accepts provider-chosen set block contents (sets are trusted)',
      schema: resource,
      prior: null,
      config: res({ set: [{ a: 'x', c: null }] }),
      planned: res({
        set: [
          { a: 'x', c: 'y' },
          { a: 'z', c: null },
        ],
      }),
      problems: [],
    },
    {
      name: 'accepts a number planned as a different representation of the same value',
      schema: resource,
      prior: null,
      config: res({ size: new Decimal('0.1') }),
      planned: res({ size: 0.1 }),
      problems: [],
    },
    {
      name: 'accepts an empty planned list block for a null config list (plan_valid_test "nested list, null in config")',
      schema: resource,
      prior: res({}),
      config: res({ list: null }),
      planned: res({}),
      problems: [],
    },
    {
      name: 'accepts refined unknowns planned less refined',
      schema: resource,
      prior: res({ name: 'old' }),
      config: res({ name: unknown({ notNull: true, stringPrefix: 'x' }) }),
      planned: res({ name: UNKNOWN }),
      problems: [],
    },
    {
      name: 'accepts an unknown nested dynamic block kept unknown',
      schema: block(
        {},
        { a: ['list', block({ computed: comp() }, { b: ['list', block({ c: opt(), computed: comp() })] })] },
      ),
      prior: { a: [{ computed: null, b: [{ c: 'x', computed: null }] }] },
      config: { a: [{ computed: null, b: UNKNOWN }] },
      planned: { a: [{ computed: UNKNOWN, b: UNKNOWN }] },
      problems: [],
    },
    {
      name: 'rejects changing a configured optional attribute (no prior)',
      schema: resource,
      prior: null,
      config: res({ desc: 'a' }),
      planned: res({ desc: 'b' }),
      problems: ['.desc: planned value "b" does not match config value "a"'],
    },
    {
      name: 'rejects changing a configured optional attribute to neither config nor prior',
      schema: resource,
      prior: res({ desc: 'old' }),
      config: res({ desc: 'a' }),
      planned: res({ desc: 'b' }),
      problems: ['.desc: planned value "b" does not match config value "a" nor prior value "old"'],
    },
    {
      name: 'rejects a computed-style value for an optional non-computed attribute',
      schema: resource,
      prior: res({ desc: 'old' }),
      config: res({}),
      planned: res({ desc: 'old' }),
      problems: ['.desc: planned value "old" for a non-computed attribute'],
    },
    {
      name: 'rejects unknown for an optional non-computed attribute left unset',
      schema: resource,
      prior: null,
      config: res({}),
      planned: res({ size: UNKNOWN }),
      problems: [['.size: planned value', 'for a non-computed attribute']],
    },
    {
      name: 'rejects unknown planned for a configured optional attribute',
      schema: resource,
      prior: null,
      config: res({ desc: 'a' }),
      planned: res({ desc: UNKNOWN }),
      problems: [['.desc: planned value', 'does not match config value "a"']],
    },
    {
      name: 'rejects a null list block collection',
      schema: resource,
      prior: null,
      config: res({}),
      planned: res({ list: null }),
      problems: ['.list: attribute representing a list of nested blocks must be empty to indicate no blocks, not null'],
    },
    {
      name: 'rejects null set, map and group block values',
      schema: resource,
      prior: null,
      config: res({}),
      planned: res({ set: null, map: null, group: null }),
      problems: [
        'attribute representing a set of nested blocks must be empty',
        'attribute representing a map of nested blocks must be empty',
        'attribute representing a group of nested blocks must be empty',
      ],
    },
    {
      name: 'rejects an unknown list block element',
      schema: resource,
      prior: null,
      config: res({ list: [{ a: 'x', c: null }] }),
      planned: res({ list: [UNKNOWN] }),
      problems: ['.list[0]: element representing nested block must not be unknown itself'],
    },
    {
      name: 'rejects an unknown set block element',
      schema: resource,
      prior: null,
      config: res({ set: [{ a: 'x', c: null }] }),
      planned: res({ set: [UNKNOWN] }),
      problems: ['.set: element representing nested block must not be unknown itself'],
    },
    {
      name: 'rejects a wholly unknown block value',
      schema: resource,
      prior: null,
      config: res({ list: [{ a: 'x', c: null }] }),
      planned: res({ list: UNKNOWN }),
      problems: ['.list: planned unknown value for non-computed block'],
    },
    {
      name: 'rejects a wrong list block count',
      schema: resource,
      prior: null,
      config: res({ list: [{ a: 'x', c: null }] }),
      planned: res({
        list: [
          { a: 'x', c: null },
          { a: 'y', c: null },
        ],
      }),
      problems: ['.list: block count in plan (2) disagrees with count in config (1)'],
    },
    {
      name: 'rejects a changed value inside a list block',
      schema: resource,
      prior: null,
      config: res({ list: [{ a: 'x', c: null }] }),
      planned: res({ list: [{ a: 'y', c: null }] }),
      problems: ['.list[0].a: planned value'],
    },
    {
      name: 'rejects map block keys that differ from config',
      schema: resource,
      prior: null,
      config: res({ map: { k1: { a: 'x', c: null } } }),
      planned: res({ map: { k2: { a: 'x', c: null } } }),
      problems: [
        'block key "k2" from plan is not present in config',
        'block key "k1" from config is not present in plan',
      ],
    },
    {
      name: 'rejects a single block planned although config has none',
      schema: resource,
      prior: null,
      config: res({}),
      planned: res({ single: { a: null, c: 'x' } }),
      problems: ['.single: planned for existence but config wants absence'],
    },
    {
      name: 'rejects a single block planned absent although configured',
      schema: resource,
      prior: null,
      config: res({ single: { a: 'x', c: null } }),
      planned: res({}),
      problems: ['.single: planned for absence but config wants existence'],
    },
    {
      name: 'rejects changes to a block that config leaves unknown (dynamic block)',
      schema: resource,
      prior: null,
      config: res({ list: UNKNOWN }),
      planned: res({ list: [] }),
      problems: ['.list: planned value [] for unknown dynamic block'],
    },
    {
      name: 'rejects a non-null write-only attribute',
      schema: secret,
      prior: null,
      config: { id: null, name: null, token: null, pw: 'hunter2' },
      planned: { id: UNKNOWN, name: null, token: null, pw: 'hunter2x' },
      problems: ['.pw: planned value for write-only attribute is not null'],
    },
    {
      name: 'accepts a write-only attribute planned as null',
      schema: secret,
      prior: null,
      config: { id: null, name: null, token: null, pw: 'hunter2' },
      planned: { id: UNKNOWN, name: null, token: null, pw: null },
      problems: [],
    },
    {
      name: 'hides sensitive values in messages',
      schema: secret,
      prior: null,
      config: { id: null, name: null, token: 'a', pw: null },
      planned: { id: UNKNOWN, name: null, token: 'b', pw: null },
      problems: ['.token: sensitive planned value does not match config value'],
    },
  ];

  for (const c of cases) {
    it(c.name, () => expectProblems(assertPlanValid(c.schema, c.prior, c.config, c.planned), c.problems));
  }

  it('accepts exactly what proposedNew produces', () => {
    const prior = res({
      id: 'x',
      region: 'eu',
      list: [{ a: 'x', c: 'p' }],
      set: [{ a: 's', c: 'q' }],
      map: { k: { a: 'm', c: 'r' } },
    });
    const config = res({
      name: 'b',
      list: [{ a: 'y', c: null }],
      set: [{ a: 's', c: null }],
      map: { k: { a: 'm', c: null } },
    });
    expectProblems(assertPlanValid(resource, prior, config, proposedNew(resource, prior, config)), []);
  });
});

// ---- assertObjectCompatible ------------------------------------------------------------------

describe('engine/checks assertObjectCompatible (objchange.AssertObjectCompatible)', () => {
  const coll = block({
    id: comp(),
    tags: optComp(listOf(STRING)),
    ids: optComp(setOf(STRING)),
    n: optComp(NUMBER),
    token: { type: STRING, computed: true, sensitive: true },
  });
  const c0 = { id: 'x', tags: null, ids: null, n: null, token: null };
  const dyn = block({ v: optComp(DYNAMIC), m: optComp(mapOf(STRING)) });
  const cases: { name: string; schema: SchemaBlock; planned: Value; actual: Value; problems: (string | string[])[] }[] =
    [
      {
        name: 'accepts identical objects',
        schema: resource,
        planned: res({ id: 'x' }),
        actual: res({ id: 'x' }),
        problems: [],
      },
      {
        name: 'accepts unknown becoming a value',
        schema: resource,
        planned: res({ id: UNKNOWN }),
        actual: res({ id: 'x' }),
        problems: [],
      },
      {
        name: 'accepts unknown becoming null',
        schema: resource,
        planned: res({ region: UNKNOWN }),
        actual: res({}),
        problems: [],
      },
      {
        name: 'accepts a value matching the refined prefix',
        schema: resource,
        planned: res({ id: unknown({ notNull: true, stringPrefix: 'pre-' }) }),
        actual: res({ id: 'pre-123' }),
        problems: [],
      },
      {
        name: 'rejects a value outside the refined prefix',
        schema: resource,
        planned: res({ id: unknown({ stringPrefix: 'pre-' }) }),
        actual: res({ id: 'post-123' }),
        problems: [['.id: final value "post-123" does not conform to planning placeholder', 'prefix "pre-"']],
      },
      {
        name: 'rejects null for a not-null refined unknown',
        schema: resource,
        planned: res({ id: unknown({ notNull: true }) }),
        actual: res({}),
        problems: [['.id: final value null does not conform to planning placeholder', 'not null']],
      },
      {
        name: 'honours number bounds',
        schema: coll,
        planned: { ...c0, n: unknown({ numberLower: [0, true], numberUpper: [10, false] }) },
        actual: { ...c0, n: 10 },
        problems: ['.n: final value'],
      },
      {
        name: 'accepts a number inside its bounds',
        schema: coll,
        planned: { ...c0, n: unknown({ numberLower: [0, true], numberUpper: [10, false] }) },
        actual: { ...c0, n: 0 },
        problems: [],
      },
      {
        name: 'honours collection length bounds',
        schema: coll,
        planned: { ...c0, tags: unknown({ lengthLower: 1 }) },
        actual: { ...c0, tags: [] },
        problems: ['.tags: final value'],
      },
      {
        name: 'accepts float64 0.1 for Decimal 0.1',
        schema: resource,
        planned: res({ size: new Decimal('0.1') }),
        actual: res({ size: 0.1 }),
        problems: [],
      },
      {
        name: 'rejects a changed known value',
        schema: resource,
        planned: res({ id: 'a' }),
        actual: res({ id: 'b' }),
        problems: ['.id: was "a", but now "b"'],
      },
      {
        name: 'rejects a number changed in value',
        schema: resource,
        planned: res({ size: 1 }),
        actual: res({ size: 2 }),
        problems: ['.size: was 1, but now 2'],
      },
      {
        name: 'rejects a null becoming a value',
        schema: resource,
        planned: res({ desc: null }),
        actual: res({ desc: 'x' }),
        problems: ['.desc: was null, but now "x"'],
      },
      {
        name: 'rejects a value becoming null',
        schema: resource,
        planned: res({ desc: 'x' }),
        actual: res({}),
        problems: ['.desc: was "x", but now null'],
      },
      {
        name: 'rejects a known value becoming unknown',
        schema: resource,
        planned: res({ id: 'x' }),
        actual: res({ id: UNKNOWN }),
        problems: ['.id: was known, but now unknown'],
      },
      {
        name: 'rejects the root object vanishing',
        schema: resource,
        planned: res({}),
        actual: null,
        problems: ['Root object was present, but now absent'],
      },
      {
        name: 'rejects the root object appearing',
        schema: resource,
        planned: null,
        actual: res({}),
        problems: ['Root object was absent, but now present'],
      },
      {
        name: 'rejects a single block appearing',
        schema: resource,
        planned: res({}),
        actual: res({ single: { a: null, c: null } }),
        problems: ['.single: was absent, but now present'],
      },
      {
        name: 'rejects a list block count change',
        schema: resource,
        planned: res({ list: [{ a: 'x', c: UNKNOWN }] }),
        actual: res({ list: [] }),
        problems: ['.list: block count changed from 1 to 0'],
      },
      {
        name: 'checks values inside list blocks',
        schema: resource,
        planned: res({ list: [{ a: 'x', c: UNKNOWN }] }),
        actual: res({ list: [{ a: 'y', c: 'z' }] }),
        problems: ['.list[0].a: was "x", but now "y"'],
      },
      {
        name: 'accepts set block elements resolving their unknowns',
        schema: resource,
        planned: res({
          set: [
            { a: 'x', c: UNKNOWN },
            { a: 'y', c: UNKNOWN },
          ],
        }),
        actual: res({
          set: [
            { a: 'y', c: '2' },
            { a: 'x', c: '1' },
          ],
        }),
        problems: [],
      },
      {
        name: 'accepts set elements coalescing (fewer elements)',
        schema: resource,
        planned: res({
          set: [
            { a: 'x', c: UNKNOWN },
            { a: 'x', c: UNKNOWN },
          ],
        }),
        actual: res({ set: [{ a: 'x', c: '1' }] }),
        problems: [],
      },
      {
        name: 'rejects a set block with more elements than planned',
        schema: resource,
        planned: res({ set: [{ a: 'x', c: UNKNOWN }] }),
        actual: res({
          set: [
            { a: 'x', c: '1' },
            { a: 'x', c: '2' },
          ],
        }),
        problems: ['.set: block set length changed from 1 to 2'],
      },
      {
        name: 'rejects a set block element that correlates with nothing',
        schema: resource,
        planned: res({ set: [{ a: 'x', c: UNKNOWN }] }),
        actual: res({ set: [{ a: 'y', c: '1' }] }),
        problems: [['.set: planned set element', 'a = "x"', 'does not correlate with any element in actual']],
      },
      {
        name: 'rejects a set attribute with more elements than planned',
        schema: coll,
        planned: { ...c0, ids: ['a', UNKNOWN] },
        actual: { ...c0, ids: ['a', 'b', 'c'] },
        problems: ['.ids: length changed from 2 to 3'],
      },
      {
        name: 'rejects list attribute elements vanishing and appearing',
        schema: coll,
        planned: { ...c0, tags: ['a', 'b'] },
        actual: { ...c0, tags: ['a'] },
        problems: ['.tags: element 1 has vanished'],
      },
      {
        name: 'checks values inside map blocks',
        schema: resource,
        planned: res({ map: { k1: { a: 'x', c: 'p' } } }),
        actual: res({ map: { k1: { a: 'x', c: 'q' } } }),
        problems: ['.map["k1"].c: was "p", but now "q"'],
      },
      {
        name: 'accepts an unknown single block placeholder that expands to no block',
        schema: resource,
        planned: res({ single: UNKNOWN }),
        actual: res({}),
        problems: [],
      },
      {
        name: 'dynamic attribute: an unknown plan allows any type',
        schema: dyn,
        planned: { v: UNKNOWN },
        actual: { v: new DynamicValue(NUMBER, 1) },
        problems: [],
      },
      {
        name: 'dynamic attribute: the final type must match the planned type',
        schema: dyn,
        planned: { v: new DynamicValue(STRING, 'a') },
        actual: { v: new DynamicValue(NUMBER, 1) },
        problems: ['.v: wrong final value type: string required, but have number'],
      },
      {
        name: 'map attribute: keys must not appear or vanish',
        schema: dyn,
        planned: { v: null, m: { a: '1', b: '2' } },
        actual: { v: null, m: { a: '1', c: '3' } },
        problems: ['.m: element "b" has vanished', '.m: new element "c" has appeared'],
      },
      {
        name: 'keeps sensitive values out of messages',
        schema: coll,
        planned: { ...c0, token: 'a' },
        actual: { ...c0, token: 'b' },
        problems: ['.token: inconsistent values for sensitive attribute'],
      },
    ];

  for (const c of cases) {
    it(c.name, () => expectProblems(assertObjectCompatible(c.schema, c.planned, c.actual), c.problems));
  }
});

// ---- RPC-level checks ------------------------------------------------------------------------

describe('engine/checks checkPlannedState / checkApplyResult / checkReadResult', () => {
  const wo = block(
    { id: comp(), pw: { type: STRING, optional: true, writeOnly: true } },
    { list: ['list', block({ k: { type: STRING, optional: true, writeOnly: true } })] },
  );

  it('checkPlannedState accepts a valid plan', () => {
    expectProblems(checkPlannedState(resource, null, res({ name: 'a' }), res({ id: UNKNOWN, name: 'a' })), []);
  });
  it('checkPlannedState reports a non-conforming plan before plan validity', () => {
    const got = checkPlannedState(resource, null, res({ name: 'a' }), res({ name: 'a', size: 'not a number' }));
    expect(got).to.have.length(1);
    expect(got[0]!.message).to.contain('planned an invalid value');
  });
  it('checkPlannedState reports write-only attributes, also inside blocks', () => {
    const got = checkPlannedState(
      wo,
      null,
      { id: null, pw: 'x', list: [{ k: 'y' }] },
      { id: UNKNOWN, pw: 'x', list: [{ k: 'y' }] },
    );
    expectProblems(got, [
      '.pw: returned a value for the write-only attribute',
      '.list[0].k: returned a value for the write-only attribute',
    ]);
  });
  it('checkPlannedState reports AssertPlanValid problems', () => {
    expectProblems(checkPlannedState(resource, null, res({ name: 'a' }), res({ name: 'b' })), ['.name: planned value']);
  });

  it('checkApplyResult accepts a valid create', () => {
    expectProblems(checkApplyResult(resource, res({ id: UNKNOWN, name: 'a' }), res({ id: 'x', name: 'a' }), false), []);
  });
  it('checkApplyResult reports unknowns left after apply', () => {
    expectProblems(
      checkApplyResult(
        resource,
        res({ id: UNKNOWN, list: [{ a: 'x', c: UNKNOWN }] }),
        res({ id: UNKNOWN, list: [{ a: 'x', c: UNKNOWN }] }),
        false,
      ),
      ['still indicated an unknown value for id', 'still indicated an unknown value for list[0].c'],
    );
  });
  it('checkApplyResult reports unknowns inside a set block once, at the set', () => {
    const planned = res({
      id: UNKNOWN,
      set: [
        { a: 'x', c: UNKNOWN },
        { a: 'y', c: UNKNOWN },
      ],
    });
    expectProblems(
      checkApplyResult(
        resource,
        planned,
        res({
          id: 'i',
          set: [
            { a: 'x', c: UNKNOWN },
            { a: 'y', c: UNKNOWN },
          ],
        }),
        false,
      ),
      ['.set: the provider still indicated an unknown value for set'],
    );
  });
  it('checkApplyResult reports inconsistent results', () => {
    expectProblems(checkApplyResult(resource, res({ id: UNKNOWN, name: 'a' }), res({ id: 'x', name: 'b' }), false), [
      '.name: was',
    ]);
  });
  it('checkApplyResult reports a null result for a create/update', () => {
    expectProblems(checkApplyResult(resource, res({ id: UNKNOWN }), null, false), [
      'Root object was present, but now absent',
    ]);
  });
  it('checkApplyResult reports a non-null result for a delete', () => {
    expectProblems(checkApplyResult(resource, null, res({ id: 'x' }), true), ['returned a non-null object']);
  });
  it('checkApplyResult accepts a null result for a delete', () => {
    expectProblems(checkApplyResult(resource, null, null, true), []);
  });
  it('checkApplyResult reports non-conforming results', () => {
    const got = checkApplyResult(resource, res({ id: UNKNOWN }), res({ id: 1 }), false);
    expect(got).to.have.length(1);
    expect(got[0]!.message).to.contain('produced an invalid value after apply');
  });

  it('checkReadResult accepts null and wholly known conforming state', () => {
    expectProblems(checkReadResult(resource, null), []);
    expectProblems(checkReadResult(resource, res({ id: 'x' })), []);
  });
  it('checkReadResult rejects unknowns', () => {
    expectProblems(checkReadResult(resource, res({ id: UNKNOWN })), ['the returned state contains unknown values']);
  });
  it('checkReadResult rejects non-conforming state and write-only values', () => {
    expect(checkReadResult(resource, res({ name: true }))).to.have.length(1);
    expectProblems(checkReadResult(wo, { id: 'x', pw: 'secret', list: [] }), [
      '.pw: returned a value for the write-only attribute',
    ]);
  });
});
