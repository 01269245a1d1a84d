/**
 * `webhookChannel` (src/resources/sec/alert-channel/fields.ts) as the next channel type would use it:
 * any API type, the URL kept in any text field of its `data`, the URL schemes the platform takes, and
 * the type's other fields beside the URL. A made-up type built on the event-bus API type goes through
 * the engine against the emulator: an http URL is refused where only https is taken, and a create
 * sends the URL and the other field where the type keeps them, which a read brings back.
 */
import { expect } from 'chai';
import { proposedNew } from '../../../packages/framework/src/engine/checks/index.js';
import { ProviderEngine } from '../../../packages/framework/src/engine/entry/index.js';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { loadProviderDef } from '../../../src/providers/describe.js';
import { webhookChannel } from '../../../src/resources/sec/alert-channel/fields.js';
import { attr } from '../../../packages/framework/src/schema/define.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { configValue } from '../../../src/tfclient/terraform-client.js';
import { quietLogger } from '../../support/quiet-logger.js';

const TYPE = 'sec_alert_channel_bus_hook';
const URL = 'https://bus.example.com/hooks/secret-part';

const channel = webhookChannel({
  typeName: TYPE,
  apiType: 'CloudAEventBus',
  wireField: 'eventBusArn',
  schemes: ['https'],
  description: 'A made-up channel type for this test.',
  urlDescription: 'Where alerts are posted.',
  more: {
    fields: { group_issues_by: attr.string({ optional: true, description: 'Events or Resources.' }) },
    toData: (m) => (m.group_issues_by ? { issueGrouping: m.group_issues_by as 'Events' | 'Resources' } : {}),
    fromData: (data) => ({ group_issues_by: data.issueGrouping ?? null }),
  },
});

describe('sec: a webhook channel of any type, with its schemes and other fields', () => {
  let emulator: SecEmulator;
  let engine: ProviderEngine<unknown>;
  const block = channel.schema.block;
  const config = (plain: Record<string, unknown>) => configValue(block, { name: 'bus-hook', ...plain });

  before(async () => {
    emulator = await startSecEmulator();
    const sec = await loadProviderDef('sec');
    engine = new ProviderEngine({ ...sec, resources: [channel] } as never, quietLogger, secProviderEnv(emulator));
    const configured = await engine.configureProvider('1.11.4', configValue(sec.schema.block, {}));
    expect(configured.items).to.deep.equal([]);
  });
  after(() => emulator?.close());

  it('declares the URL, its write-only twin and the other fields', () => {
    expect(Object.keys(block.attributes)).to.include.members([
      'webhook_url',
      'webhook_url_wo',
      'webhook_url_wo_version',
      'group_issues_by',
    ]);
    expect(block.attributes.webhook_url).to.include({ sensitive: true, optional: true });
  });

  it('refuses an http URL where the type takes https only, at the attribute', () => {
    const diags = engine.validateResourceConfig(TYPE, config({ webhook_url: 'http://bus.example.com/h' }));
    const errors = diags.items.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.summary)).to.deep.equal(['Invalid value for "webhook_url"']);
    expect(errors[0]!.detail).to.match(/https/);
    expect(JSON.stringify(errors[0]!.path)).to.include('"webhook_url"');
  });

  it('sends the URL and the other field where the type keeps them, and reads them back', async () => {
    const wanted = config({ webhook_url: URL, group_issues_by: 'Resources', test_integration: false });
    const plan = engine.planResourceChange(TYPE, null, proposedNew(block, null, wanted) as ObjectValue, wanted, {});
    expect(plan.diags.items.filter((d) => d.severity === 'error')).to.deep.equal([]);
    const applied = await engine.applyResourceChange(TYPE, null, plan.planned, plan.plannedPrivate, wanted);
    expect(applied.diags.items.filter((d) => d.severity === 'error')).to.deep.equal([]);
    const stored = emulator.list<{ name: string; type: string; data: Record<string, unknown> }>('AlertChannels');
    const made = stored.find((c) => c.name === 'bus-hook')!;
    expect(made.type).to.equal('CloudAEventBus');
    expect(made.data).to.deep.equal({ eventBusArn: URL, issueGrouping: 'Resources' });
    const read = await engine.readResource(TYPE, applied.state!, applied.private);
    expect(read.state).to.include({ webhook_url: URL, group_issues_by: 'Resources' });
  });
});
