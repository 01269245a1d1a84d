/**
 * What the sec emulator keeps of a body: every field the contract declares, as sent, with no store line
 * of its own (src/emulators/core/body-spec.ts, `declaredFields`), so that a field the contract gains is
 * kept by the routing rules' stores the moment it is declared; the platform's own fields and
 * normalisations laid over it.
 */
import { expect } from 'chai';
import { declaredFields, field } from '../../src/emulators/core/index.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { ALERT_RULE_BODIES } from '../../src/wire/sec-contract/alert-rules.js';
import { REPORT_NOTIFICATION_KEYS, REPORT_RULE_BODIES } from '../../src/wire/sec-contract/report-rules.js';
import type { ObjectSpec } from '../../src/wire/sec-contract/language.js';

describe('sec emulator: the fields a body declares are kept as sent', () => {
  it('declaredFields: the fields the spec names, at every depth it describes, and nothing else', () => {
    const spec = field.object({
      name: field.string(),
      filters: field.object({ level: field.integer({ optional: true }), tags: field.array(field.string()) }),
    });
    const body = { name: 'a', other: 1, filters: { level: 3, tags: ['x'], console: true } };
    const kept = declaredFields(spec, body);
    expect(kept).to.deep.equal({ name: 'a', filters: { level: 3, tags: ['x'] } });
    // Copies: the stored value does not change with the body.
    (body.filters.tags as string[]).push('y');
    expect(kept.filters).to.deep.equal({ level: 3, tags: ['x'] });
  });

  /**
   * A rule of each collection as the client would send it, `filters.gainedInThisTest` beside the others
   * (a name no real field takes: the process shares the contract with every other test).
   */
  const rules = {
    ReportRules: (channel: string) => ({
      type: 'Report',
      intgGuidList: [channel],
      filters: { name: 'weekly', enabled: 1, severity: [1, 2], gainedInThisTest: 7 },
      reportNotificationTypes: Object.fromEntries(REPORT_NOTIFICATION_KEYS.map((key) => [key, false])),
    }),
    AlertRules: () => ({
      type: 'Event',
      intgGuidList: [],
      filters: { name: 'critical', enabled: 1, severity: [1], gainedInThisTest: 7 },
    }),
  };

  for (const [collection, spec] of [
    ['ReportRules', REPORT_RULE_BODIES.ReportRules!],
    ['AlertRules', ALERT_RULE_BODIES.AlertRules!],
  ] as const)
    it(`${collection}: a filter the contract gains is stored and answered with no line of the store`, async () => {
      const filters = (spec as ObjectSpec).fields.filters as ObjectSpec;
      const mutable = filters.fields as Record<string, unknown>;
      // The contract gains a field, as a new platform field is declared: nothing else changes.
      mutable.gainedInThisTest = field.integer({ optional: true, min: 1, max: 1000 });
      const emulator = await startSecEmulator();
      try {
        const token = await login(emulator);
        const channel = await post(emulator, token, '/api/v2/AlertChannels', {
          name: 'reports',
          type: 'EmailUser',
          enabled: 1,
          data: { channelProps: { recipients: ['reports@example.com'] } },
        });
        const made = await post(emulator, token, `/api/v2/${collection}`, rules[collection](channel.intgGuid));
        expect(made.filters.gainedInThisTest, 'answered as sent').to.equal(7);
        const read = await fetch(`${emulator.url}/api/v2/${collection}/${made.mcGuid}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(((await read.json()) as { data: any }).data.filters.gainedInThisTest, 'read back').to.equal(7);
      } finally {
        delete mutable.gainedInThisTest;
        await emulator.close();
      }
    });
});

async function login(emulator: SecEmulator): Promise<string> {
  const answer = await fetch(`${emulator.url}/api/v2/access/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-SEC-UAKS': emulator.apiSecret },
    body: JSON.stringify({ keyId: emulator.apiKey, expiryTime: 3600 }),
  });
  return ((await answer.json()) as { token: string }).token;
}

/** A create; its answer's `data`. */
async function post(emulator: SecEmulator, token: string, path: string, body: unknown): Promise<any> {
  const answer = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  expect(answer.status, text).to.equal(201);
  return (JSON.parse(text) as { data: any }).data;
}
