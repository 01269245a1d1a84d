/**
 * The sec API's OpenAPI 3.1 document says what the emulator enforces
 * (docs/api/sec.md, "Field rules"). Served at `/openapi.json` without a token, it describes every route, and every body a
 * route validates. Then, for every table a body is validated with, at every depth, values at and
 * around each rule (each bound, each enum value and a near miss, each format, each required field, an
 * unknown field, null) are judged by ajv over the document's schema and by the emulator's validator;
 * the verdicts must agree. Rules across fields (`x-checks`) are the emulator's code: named, counted,
 * and left to the emulator's own tests. docs/api/sec.md names no bound the document does not hold.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_BODY_LIMITS,
  STRING_FORMATS,
  jsonSchemaOf,
  validate,
  type FieldSpec,
  type JsonSchema,
} from '../../src/emulators/core/index.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { openApiAjv } from '../support/openapi-ajv.js';

/** POST and PATCH routes that take no body the emulator validates with a table, and why. */
const NO_BODY: Record<string, string> = {
  'POST /api/v2/AlertChannels/{intgGuid}/test': 'a channel test takes no body',
  'POST /api/v2/AgentAccessTokens/search': 'a search: its filters are parsed by search-filters.ts',
  'POST /api/v2/TeamMembers/search': 'a search: its filters are parsed by search-filters.ts',
  'POST /api/v2/Inventory/scan': 'a scan takes its cloud in the query string',
  'POST /api/v2/Exceptions': 'an exception: its constraints are judged against its policy (policy-exceptions.ts)',
  'PATCH /api/v2/Exceptions/{id}': 'as its create',
};

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n';
const TEXTS = [
  '',
  ' ',
  'a',
  'a@b.example',
  'not an e-mail',
  'https://hooks.example/x',
  'http://hooks.example/x',
  'ftp://hooks.example/x',
  'data:application/json;base64,e30=',
  'data:application/json;base64,e30',
  'data:text/plain;base64,e30=',
  PEM,
  PEM.replace('MIIB', 'MI!B'),
];

/** A value the spec accepts, where one can be made from the spec alone (a rule across fields may still refuse it). */
function sampleOf(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'string':
      return spec.oneOf?.[0] ?? TEXTS.find((t) => t !== '' && (!spec.format || STRING_FORMATS[spec.format](t))) ?? 'a';
    case 'integer':
      return spec.min ?? spec.max ?? 1;
    case 'flag':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(spec.minItems ?? 0, 1) }, () => sampleOf(spec.items));
    case 'object':
      return Object.fromEntries(
        Object.entries(spec.fields)
          .filter(([, f]) => !f.optional)
          .map(([name, f]) => [name, sampleOf(f)]),
      );
  }
}

/** Values at and around every rule of the spec's own level. */
function candidates(spec: FieldSpec): unknown[] {
  const out: unknown[] = [null, undefined, true, 0, 'x', [], {}];
  switch (spec.kind) {
    case 'string': {
      const max =
        spec.maxLength ??
        (spec.format === 'json-data-url' ? DEFAULT_BODY_LIMITS.documentCharacters : DEFAULT_BODY_LIMITS.characters);
      out.push(...TEXTS, 'x'.repeat(max), 'x'.repeat(max + 1), `${'é'.repeat(max - 1)}😀`, `😀${'é'.repeat(max)}`);
      for (const option of spec.oneOf ?? []) out.push(option, option.toLowerCase(), option.toUpperCase(), ` ${option}`);
      if (spec.format === 'https-url' || spec.format === 'url') out.push(`https://h.example/${'x'.repeat(max - 18)}`);
      break;
    }
    case 'integer':
      for (const bound of [spec.min, spec.max]) if (bound !== undefined) out.push(bound - 1, bound, bound + 1);
      out.push(1.5, '1', -1, 2 ** 31, Number.MAX_SAFE_INTEGER);
      break;
    case 'flag':
      out.push(1, 2, -1, false);
      break;
    case 'boolean':
      out.push(false, 1);
      break;
    case 'array': {
      const item = sampleOf(spec.items);
      const max = spec.maxItems ?? DEFAULT_BODY_LIMITS.items;
      for (const n of [0, 1, 2, (spec.minItems ?? 1) - 1, spec.minItems ?? 0, max, max + 1])
        if (n >= 0) out.push(Array.from({ length: n }, () => item));
      out.push([null], ['x'], [1]);
      break;
    }
    case 'object': {
      const sample = sampleOf(spec) as Record<string, unknown>;
      out.push(sample, { ...sample, notAField: 1 }, [sample]);
      for (const name of Object.keys(sample)) {
        const { [name]: _left, ...without } = sample;
        out.push(without, { ...sample, [name]: null });
      }
      break;
    }
  }
  return out;
}

/** Every table below `spec` (itself included), with where it is. */
function* tablesOf(spec: FieldSpec, where: string): Generator<[string, FieldSpec]> {
  yield [where, spec];
  if (spec.kind === 'array') yield* tablesOf(spec.items, `${where}[]`);
  if (spec.kind === 'object')
    for (const [name, f] of Object.entries(spec.fields)) yield* tablesOf(f, `${where}.${name}`);
}

/** The keywords of the document that are rules, counted at every depth. */
const RULE_KEYWORDS = new Set([
  'maxLength',
  'minLength',
  'enum',
  'const',
  'format',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'required',
  'additionalProperties',
  'pattern',
]);
/** Every keyword of a document and its value, at every depth. */
function* keywordsOf(schema: unknown): Generator<[string, unknown]> {
  if (Array.isArray(schema)) for (const s of schema) yield* keywordsOf(s);
  else if (schema !== null && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      yield [key, value];
      yield* keywordsOf(value);
    }
}

describe('sec: the OpenAPI document says what the emulator enforces', () => {
  let emulator: SecEmulator;
  let document: Record<string, any>;
  before(async () => {
    emulator = await startSecEmulator({});
    const answer = await fetch(`${emulator.url}/openapi.json`);
    expect(answer.status).to.equal(200);
    document = (await answer.json()) as Record<string, any>;
  });
  after(() => emulator?.close());

  it('is served without a token, as OpenAPI 3.1, with every route and the body of every route that validates one', () => {
    expect(document.openapi).to.equal('3.1.0');
    const routes = emulator.routes().filter((r) => r.path !== '/openapi.json');
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).to.deep.equal(routes.map((r) => `${r.method} ${r.path}`).sort());
    const undescribed = routes
      .filter((r) => (r.method === 'POST' || r.method === 'PATCH') && r.body === undefined)
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !(key in NO_BODY));
    expect(undescribed, 'bodies the document does not describe: document them, or say why not').to.deep.equal([]);
    const ajv = openApiAjv();
    for (const route of routes.filter((r) => r.body !== undefined)) {
      const schema = document.paths[route.path][route.method.toLowerCase()].requestBody.content['application/json']
        .schema as JsonSchema;
      expect(() => ajv.compile(schema), `${route.method} ${route.path}`).to.not.throw();
    }
  });

  it("ajv over the document and the emulator's validator agree on every rule's edges, at every depth", () => {
    const ajv = openApiAjv();
    const tally = { operations: 0, tables: 0, values: 0, agreeing: 0, acrossFields: 0 };
    const disagreements: string[] = [];
    const seen = new Set<FieldSpec>();
    for (const route of emulator.routes()) {
      if (!route.specs) continue;
      tally.operations++;
      for (const [part, root] of Object.entries(route.specs)) {
        for (const [where, spec] of tablesOf(root, part)) {
          if (seen.has(spec)) continue;
          seen.add(spec);
          tally.tables++;
          // A rule across fields is code: JSON Schema cannot say it, and `x-checks` says it in words.
          if (spec.kind === 'object' && spec.check) {
            tally.acrossFields++;
            continue;
          }
          const judge = ajv.compile(jsonSchemaOf(spec));
          for (const value of candidates(spec)) {
            tally.values++;
            const byDocument = judge(value ?? null) || (value === undefined && spec.optional === true);
            let byEmulator = true;
            try {
              validate(spec, value, 'x');
            } catch {
              byEmulator = false;
            }
            if (byDocument === byEmulator) tally.agreeing++;
            else
              disagreements.push(
                `${route.method} ${route.path} ${where}: ${JSON.stringify(value)?.slice(0, 80)}: document ` +
                  `${byDocument ? 'accepts' : 'refuses'}, emulator ${byEmulator ? 'accepts' : 'refuses'}`,
              );
          }
        }
      }
    }
    const found = { rules: 0, checks: 0 };
    for (const [key] of keywordsOf(document.paths)) {
      if (RULE_KEYWORDS.has(key)) found.rules++;
      if (key === 'x-checks') found.checks++;
    }
    process.stdout.write(
      `      sec: ${tally.operations} operations with bodies, ${found.rules} field rules in the document ` +
        `(${found.checks} rules across fields in words), ${tally.tables} tables, ${tally.values} values tried, ` +
        `${tally.agreeing} verdicts agreeing\n`,
    );
    expect(disagreements.slice(0, 20)).to.deep.equal([]);
    expect(tally.values).to.be.above(1000);
  });

  it('docs/api/sec.md names no bound of a field that the document does not hold', () => {
    const page = readFileSync('docs/api/sec.md', 'utf8');
    const bounds = new Set<number>();
    // The whole document: the routes' bodies and the contract's, by name (components.schemas).
    for (const [key, value] of keywordsOf(document))
      if (['maxLength', 'maxItems', 'minimum', 'maximum'].includes(key) && typeof value === 'number') bounds.add(value);
    // Bounds said in the page's prose, outside its generated table of field rules: "at most 64
    // characters", "1,000 items", a range "1–65535". A field's rules are the table's: prose that repeats
    // one goes stale when the contract changes.
    const prose = page.replace(/<!-- generated: sec field rules -->[\s\S]*?<!-- end generated -->/, '');
    const number = (text: string) => Number(text.replace(/,/g, ''));
    const said = [
      ...[...prose.matchAll(/(?:at most|up to|over) ([\d,]+) (?:characters|items|entries)/g)].map((m) => number(m[1]!)),
      ...[...prose.matchAll(/\b([\d,]+)\s*–\s*([\d,]+)\b/g)].flatMap((m) => [number(m[1]!), number(m[2]!)]),
    ];
    expect(said.length, 'bounds the page says').to.be.above(0);
    // Not a field's: a message quotes at most 64 characters of a value; a fault rate is a share from 0 to 1.
    const notFields = new Set([0, 1, 64]);
    expect(said.filter((n) => !bounds.has(n) && !notFields.has(n))).to.deep.equal([]);
  });
});
