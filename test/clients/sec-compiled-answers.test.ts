/**
 * The sec client checks an answer with zod's compiled parser once its schema has checked
 * COMPILE_AFTER answers (src/clients/sec/decode.ts). Held here against zod's own parse, answer by
 * answer, over the building blocks every API module's schemas are made of (the integration object,
 * each alert channel's data, integer booleans, texts the platform may leave out, maps that keep any
 * key, `__proto__` included, the envelope) with answers that are well formed, nearly so, or anything:
 * the same verdict, the same value (keys, their order, prototypes), the same issues.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { z } from 'zod';
import { ALERT_CHANNEL_DATA_SCHEMAS } from '../../src/clients/sec/alert-channel-data.js';
import { COMPILE_AFTER, decodeBody, parserOf } from '../../src/clients/sec/decode.js';
import { integrationSchema } from '../../src/clients/sec/integration.js';
import { tokenResponseSchema } from '../../src/clients/sec/token-response.js';
import { envelope, flag, keyedRecord, optionalText } from '../../src/clients/sec/wire.js';

/** A value as JSON would carry it, with each object's own keys in order and whether it has a prototype. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== 'object') return value;
  return {
    prototype: Object.getPrototypeOf(value) === null ? 'none' : 'Object',
    entries: Object.keys(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]),
  };
}

function verdict(result: ReturnType<z.ZodType['safeParse']>): unknown {
  return result.success
    ? { success: true, data: shape(result.data) }
    : { success: false, issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })) };
}

/** Keys as the platform's maps may hold them. */
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString'));
const text = fc.string({ maxLength: 8 });
const timestamp = fc.oneof(fc.integer(), text);
/** A JSON object with these fields, some of them left out, parsed from its text (so `__proto__` stays a key). */
const jsonObject = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }))
    .map(([known, extra]) => JSON.parse(JSON.stringify({ ...extra, ...known })) as unknown);

const alertChannelData = fc.oneof(
  jsonObject({ channelProps: jsonObject({ recipients: fc.oneof(fc.array(text, { maxLength: 3 }), text) }) }),
  jsonObject({ eventBusArn: text, issueGrouping: fc.constantFrom('Events', 'Resources', 'Other') }),
  jsonObject({ webhookUrl: text, webhook: text, intgUrl: text }),
  jsonObject({ apiKey: text, metricsSite: fc.constantFrom('com', 'eu', 'us'), metricsType: text }),
);
const integration = jsonObject({
  intgGuid: text,
  name: text,
  type: fc.constantFrom(...Object.keys(ALERT_CHANNEL_DATA_SCHEMAS), 'Unknown'),
  enabled: fc.constantFrom(0, 1, true, false, 2, 'yes'),
  isOrg: fc.constantFrom(0, 1, true, undefined, null),
  createdOrUpdatedTime: text,
  createdOrUpdatedBy: text,
  state: jsonObject({
    ok: fc.boolean(),
    lastUpdatedTime: timestamp,
    lastSuccessfulTime: timestamp,
    details: fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  }),
  props: fc.oneof(fc.constant(null), fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })),
  serverToken: jsonObject({ serverToken: text, uri: text }),
  data: alertChannelData,
});

const CASES: ReadonlyArray<readonly [string, z.ZodType, fc.Arbitrary<unknown>]> = [
  ['the integration object', integrationSchema, integration],
  ['an integration in its envelope', envelope(integrationSchema), jsonObject({ data: integration })],
  [
    'a list of integrations in its envelope',
    envelope(z.array(integrationSchema)),
    jsonObject({ data: fc.array(integration, { maxLength: 3 }) }),
  ],
  ...Object.entries(ALERT_CHANNEL_DATA_SCHEMAS).map(
    ([type, schema]) => [`${type} alert channel data`, schema as z.ZodType, alertChannelData] as const,
  ),
  ['an integer boolean', flag, fc.jsonValue({ maxDepth: 0 })],
  [
    'a text the platform may leave out',
    z.object({ text: optionalText }),
    jsonObject({ text: fc.oneof(text, fc.constant(null)) }),
  ],
  [
    'a map that keeps any key',
    keyedRecord(z.string()),
    fc
      .dictionary(key, fc.oneof(text, fc.integer()), { maxKeys: 4 })
      .map((m) => JSON.parse(JSON.stringify(m)) as unknown),
  ],
  [
    'a token',
    tokenResponseSchema,
    jsonObject({
      token: text,
      expiresAt: fc.oneof(
        text,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
    }),
  ],
];

describe('sec answers checked by the compiled parser', () => {
  for (const [what, schema, answers] of CASES) {
    it(`gives zod's own verdict, value and issues for ${what}`, () => {
      const compiled = z.compile(schema);
      fc.assert(
        fc.property(fc.oneof(answers, fc.jsonValue({ maxDepth: 3 })), (answer) => {
          expect(verdict(compiled.safeParse(answer))).to.deep.equal(verdict(schema.safeParse(answer)));
        }),
        { numRuns: 300 },
      );
    });
  }

  it(`checks with zod's own parse until a schema has checked ${COMPILE_AFTER} answers, then with its compiled one`, () => {
    const schema = envelope(integrationSchema);
    const facts = { operation: 'GET /api/v2/AlertChannels/{intgGuid}', status: 200 };
    const answer = JSON.stringify({
      data: {
        intgGuid: 'G1',
        name: 'n',
        type: 'EmailUser',
        enabled: 1,
        createdOrUpdatedTime: 't',
        createdOrUpdatedBy: 'b',
        data: {},
      },
    });
    for (let use = 1; use < COMPILE_AFTER; use++) decodeBody(answer, schema, facts);
    const compiled = parserOf(schema);
    expect(compiled, 'compiled at its last use').to.not.equal(schema);
    expect(parserOf(schema), 'compiled once').to.equal(compiled);
    expect(decodeBody(answer, schema, facts)).to.deep.equal(schema.parse(JSON.parse(answer)));
    expect(() => decodeBody('{"data":{}}', schema, facts)).to.throw(
      'the response does not have the expected shape: data.intgGuid: Invalid input: expected string, received undefined',
    );
  });
});
