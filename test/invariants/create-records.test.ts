/**
 * No secret in a record of a create (packages/framework/src/engine/journal/create-journal.ts), over every resource type
 * of both
 * providers that records its creates: property-based, plans whose every sensitive attribute, at every
 * depth, holds a secret of its own are written down as the provider writes them before a create
 * request leaves, and neither the file nor the text its settings digest stands for holds any of them.
 * Both providers declare where their requests go, so that records are kept per API.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import { CreateJournal, journalPlace } from '../../packages/framework/src/engine/journal/index.js';
import { createEntry, settingsText } from '../../packages/framework/src/engine/creates/create-records.js';
import { inCurrentForm } from '../../packages/framework/src/engine/plan/index.js';
import type { AttrDef, BlockDef, Fields } from '../../packages/framework/src/schema/define.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { toModel } from '../../packages/framework/src/schema/model.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 20);

/** A value of `type` whose every string is `text()`: a secret's, or a plain one. */
function arbitraryOf(type: CtyType, text: () => fc.Arbitrary<string>, depth = 0): fc.Arbitrary<Value> {
  switch (type.kind) {
    case 'string':
      return text();
    case 'number':
      return fc.integer({ min: 0, max: 1000 });
    case 'bool':
      return fc.boolean();
    case 'list':
    case 'set':
      return depth > 3 ? fc.constant([]) : fc.array(arbitraryOf(type.element, text, depth + 1), { maxLength: 2 });
    case 'map':
      return depth > 3
        ? fc.constant({})
        : fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), arbitraryOf(type.element, text, depth + 1), { maxKeys: 2 });
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(type.attributes).map(([k, t]) => [k, arbitraryOf(t, text, depth + 1)])),
      ) as fc.Arbitrary<Value>;
    default:
      return fc.constant(null);
  }
}

const secretText = () => fc.stringMatching(/^[A-Za-z0-9]{6,12}$/).map((s) => `SECRET${s}`);
const plainText = () => fc.stringMatching(/^[a-z0-9-]{1,12}$/);

function objectOf(fields: Fields, inSecret = false, depth = 0): fc.Arbitrary<ObjectValue> {
  const parts: Record<string, fc.Arbitrary<Value>> = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr') {
      const secret = inSecret || isSecret(def);
      parts[name] = fc.option(arbitraryOf(def.type.cty, secret ? secretText : plainText), { nil: null });
    } else parts[name] = blockOf(def, inSecret, depth);
  }
  return fc.record(parts);
}

function blockOf(def: BlockDef<Fields>, inSecret: boolean, depth: number): fc.Arbitrary<Value> {
  if (depth > 3) return fc.constant(def.nesting === 'single' || def.nesting === 'group' ? null : []);
  const element = objectOf(def.fields, inSecret, depth + 1);
  if (def.nesting === 'single' || def.nesting === 'group') return fc.option(element, { nil: null });
  return fc.array(element, { maxLength: 2 });
}

function isSecret(def: AttrDef<unknown>): boolean {
  const o = def.options;
  return o.sensitive === true || o.writeOnly === true || o.masked === true || o.oneTime === true || !!o.twinOf;
}

/** Every SECRET… string in a value. */
function secretsIn(v: unknown): string[] {
  if (typeof v === 'string') return v.startsWith('SECRET') ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(secretsIn);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(secretsIn);
  return [];
}

for (const name of ['sec', 'vdb'] as const)
  describe(`invariants: ${name}: no secret in the record of a create, for every type that records its creates`, function () {
    this.timeout(120_000);
    let dir: string;
    let resources: ResourceDef<Fields, unknown>[];

    before(async () => {
      const def = await loadProviderDef(name);
      expect(def.apiAddress, `${name} says where its requests go (ProviderDef.apiAddress)`).to.be.a('function');
      resources = def.resources.filter((r) => r.findCreated);
      expect(resources.length).to.be.above(0);
    });
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'keel-records-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('every sensitive value, at any depth, stays out of the file and of the text its settings digest stands for', async () => {
      const journal = new CreateJournal(name, journalPlace({ namespace: 'keel', name }, {}, dir));
      journal.useApi('https://api.example');
      let checked = 0;
      for (const r of resources) {
        const fields = r.schema.fields;
        await fc.assert(
          fc.asyncProperty(objectOf(fields), fc.array(plainText(), { maxLength: 3 }), async (planned, census) => {
            const secrets = secretsIn(planned);
            const text = settingsText(fields, inCurrentForm(fields, planned));
            for (const secret of secrets) expect(text, `${r.typeName}: the settings text`).to.not.include(secret);
            const entry = createEntry(r, toModel(fields, planned), planned);
            const handle = await journal.sent(entry, census);
            await journal.answered(handle, census[0] ?? 'object-1');
            await journal.finish(handle, 'returned');
            for (const secret of secrets)
              expect(JSON.stringify(handle), `${r.typeName}: its record`).to.not.include(secret);
            checked++;
          }),
          { numRuns: RUNS },
        );
      }
      // What the provider wrote: none of its log's lines holds a secret.
      await journal.flush();
      const root = join(
        journalPlace({ namespace: 'keel', name }, {}, dir).root,
        readdirSync(journalPlace({ namespace: 'keel', name }, {}, dir).root)[0]!,
      );
      const logs = readdirSync(root).filter((n) => n.startsWith('l~'));
      expect(logs).to.have.length(1);
      const log = readFileSync(join(root, logs[0]!), 'utf8');
      const lines = log.split('\n').filter((line) => line !== '');
      expect(
        lines.filter((line) => line.includes('"sent"')),
        'a request each',
      ).to.have.length(checked);
      expect(
        lines.filter((line) => line.includes('"answer"')),
        'an answer and a return each',
      ).to.have.length(2 * checked);
      expect(log, 'the log of the requests: every secret of the plans begins so').to.not.include('SECRET');
      expect(journal.takeProblem()).to.equal(undefined);
      console.log(`      ${resources.length} ${name} types, ${checked} plans written down with their secrets left out`);
    });
  });
