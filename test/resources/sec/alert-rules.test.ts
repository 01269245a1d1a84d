/**
 * Alert rules (sec_alert_rule) through the real provider executable and the Terraform-side client,
 * against the in-process emulator: create, empty re-plan (severities in any case and order), update,
 * import, drift, destroy; the platform refusing unknown channels and resource groups; plan-time
 * validation naming the attribute. Data export rules (sec_data_export_rule) the same way, to
 * object-store channels only.
 */
import { expect } from 'chai';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { missingAtPlanRefusedAtApply } from '../../support/missing-objects.js';
import { type TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';

describe('sec_alert_rule through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;
  let channel = '';
  let group = '';

  const type = 'sec_alert_rule';
  const cfg = (t: string, plain: Record<string, unknown>) => configValue(tf.resourceSchema(t).block, plain);
  async function converge(t: string, prior: ObjectValue | null, plain: Record<string, unknown>): Promise<ObjectValue> {
    const config = cfg(t, plain);
    await tf.validateResource(t, config);
    const { state } = await tf.apply(t, prior, await tf.plan(t, prior, config), config);
    const again = await tf.plan(t, state, config);
    expect(again.requiresReplace).to.deep.equal([]);
    expect(
      valueEquals(impliedType(tf.resourceSchema(t).block), again.planned, state),
      `re-plan of ${t} must be empty`,
    ).to.equal(true);
    return state!;
  }
  const destroy = async (t: string, state: ObjectValue) => tf.apply(t, state, await tf.plan(t, state, null), null);

  before(async () => {
    sec = await startSecProvider({ account: 'acme' });
    ({ emulator, tf } = sec);
    channel = (
      await converge('sec_alert_channel_webhook', null, {
        name: 'rules-hook',
        webhook_url: 'https://hooks.acme.example/rules',
      })
    ).intg_guid as string;
    group = (
      await converge('sec_resource_group', null, {
        name: 'rules-group',
        type: 'CLOUD_A',
        group: [
          {
            operator: 'AND',
            filter: [{ filter_name: 'a', field: 'Account', operation: 'EQUALS', value: ['123456789012'] }],
          },
        ],
      })
    ).id as string;
  });
  after(() => sec?.close());

  const rule = (extra: Record<string, unknown> = {}) => ({
    name: 'prod alerts',
    severities: ['high', 'CRITICAL'],
    alert_channels: [channel],
    ...extra,
  });

  it('creates, updates, imports, shows drift and deletes', async () => {
    let state = await converge(
      type,
      null,
      rule({
        resource_groups: [group],
        alert_categories: ['Policy', 'Anomaly'],
        alert_sources: ['CloudA', 'Agent', 'CloudD'],
        alert_subcategories: ['Compliance', 'Threat Intel', 'Cloud Activity'],
      }),
    );
    expect(state).to.deep.include({
      name: 'prod alerts',
      enabled: true,
      type: 'Event',
      guid: state.id,
      description: null,
    });
    expect(state.severities, 'the configured spelling and order are kept').to.deep.equal(['high', 'CRITICAL']);
    const stored = emulator.get<{ type: string; intgGuidList: string[]; filters: Record<string, unknown> }>(
      'AlertRules',
      state.id as string,
    )!;
    expect(stored.intgGuidList).to.deep.equal([channel]);
    expect(stored.filters).to.deep.include({
      name: 'prod alerts',
      enabled: 1,
      severity: [1, 2],
      resourceGroups: [group],
    });
    expect(stored.filters.category).to.have.members(['Policy', 'Anomaly']);
    expect(stored.filters.subCategory).to.have.members(['Compliance', 'Threat Intel', 'Cloud Activity']);
    expect(stored.filters.source).to.have.members(['CloudA', 'Agent', 'CloudD']);

    state = await converge(type, state, rule({ enabled: false, description: 'paused', severities: ['Critical'] }));
    expect(
      emulator.get<{ filters: Record<string, unknown> }>('AlertRules', state.id as string)!.filters,
    ).to.deep.include({ enabled: 0, description: 'paused', severity: [1], resourceGroups: [], category: [] });

    const imported = await tf.importState(type, state.id as string);
    expect(imported).to.deep.include({
      id: state.id,
      guid: state.id,
      name: 'prod alerts',
      enabled: false,
      description: 'paused',
      severities: ['Critical'],
      alert_channels: [channel],
    });
    const replan = await tf.plan(
      type,
      imported,
      cfg(type, rule({ enabled: false, description: 'paused', severities: ['Critical'] })),
    );
    expect(valueEquals(impliedType(tf.resourceSchema(type).block), replan.planned, imported)).to.equal(true);

    emulator.put('AlertRules', state.id as string, { ...stored, filters: { ...stored.filters, severity: [5] } });
    expect((await tf.read(type, state)).state!.severities).to.deep.equal(['Info']);

    await destroy(type, state);
    expect(emulator.get('AlertRules', state.id as string)).to.equal(undefined);
    expect((await tf.read(type, state)).state).to.equal(null);
  });

  it('a channel or resource group the platform does not hold: a warning at plan at the argument, refused before sending at apply', async () => {
    for (const [extra, path, detail] of [
      [
        { alert_channels: ['ACME_NOPE'] },
        'alert_channels',
        /^"ACME_NOPE" is none of the alert channels the platform holds/,
      ],
      [{ resource_groups: ['ACME_NOGROUP'] }, 'resource_groups', /^"ACME_NOGROUP" is none of the resource groups /],
    ] as const) {
      const found = await missingAtPlanRefusedAtApply(tf, type, cfg(type, rule(extra)));
      expect(found.map((d) => [d.summary, d.path])).to.deep.equal([['Names no existing object', path]]);
      expect(found[0]!.detail).to.match(detail);
    }
    expect(emulator.list('AlertRules')).to.deep.equal([]);
    // `missing_references = "refuse"`: the plan itself refuses.
    await tf.configure({ missing_references: 'refuse' });
    try {
      const atPlan = await tf.plan(type, null, cfg(type, rule({ alert_channels: ['ACME_NOPE'] }))).then(
        () => null,
        (e: unknown) => e,
      );
      expect(atPlan).to.be.instanceOf(ProviderCallError);
      const [refused] = (atPlan as ProviderCallError).diagnostics;
      expect([refused!.summary, refused!.path]).to.deep.equal(['Names no existing object', 'alert_channels']);
      expect(refused!.detail).to.include('`missing_references` is "refuse"');
    } finally {
      await tf.configure({});
    }
  });

  it('validates severities, sources and categories at plan time, naming the attribute', async () => {
    const err = await tf
      .validateResource(
        type,
        cfg(
          type,
          rule({
            severities: ['Severe'],
            alert_sources: ['Cloud A'],
            alert_categories: ['Policy'],
            alert_subcategories: ['Nope'],
          }),
        ),
      )
      .then(
        () => null,
        (e: unknown) => e as ProviderCallError,
      );
    expect(err!.diagnostics.map((d) => d.summary)).to.have.members([
      'Invalid value for "severities"',
      'Invalid value for "alert_sources"',
      'Invalid value for "alert_subcategories"',
    ]);
    const empty = await tf.validateResource(type, cfg(type, rule({ severities: [] }))).then(
      () => null,
      (e: unknown) => e as ProviderCallError,
    );
    expect(empty!.diagnostics.map((d) => d.summary)).to.deep.equal(['Invalid value for "severities"']);
  });

  describe('the current vocabulary and the deprecated one', () => {
    const warningsOf = async (plain: Record<string, unknown>) => {
      const before = tf.received.length;
      await tf.validateResource(type, cfg(type, plain));
      return tf.received
        .slice(before)
        .filter((d) => d.severity === 'warning')
        .map((d) => `${d.summary} at ${d.path}: ${d.detail}`);
    };

    it('event_categories and sources still work, with the older names: sent in the current names, read back in the configured form, with warnings that name the replacements', async () => {
      const old = rule({
        name: 'old words',
        event_categories: ['App', 'Cloud', 'Compliance', 'K8sActivity'],
        sources: ['K8s', 'CloudD'],
      });
      const warnings = await warningsOf(old);
      expect(warnings).to.include(
        'Argument "event_categories" is deprecated at event_categories: Use `alert_subcategories`, which takes the same values (the current names, and the older ones).',
      );
      expect(warnings).to.include(
        'Argument "sources" is deprecated at sources: Use `alert_sources`, which takes the same values.',
      );
      expect(warnings).to.include(
        'Deprecated value at event_categories: `App` is the older name of the subcategory `Application`; write `Application`.',
      );
      expect(warnings.filter((w) => w.startsWith('Deprecated value'))).to.have.length(3);
      let state = await converge(type, null, old);
      const stored = () =>
        emulator.get<{ filters: Record<string, unknown> }>('AlertRules', state.id as string)!.filters;
      expect(stored().subCategory).to.have.members([
        'Application',
        'Cloud Activity',
        'Compliance',
        'Kubernetes Activity',
      ]);
      expect(stored().source).to.have.members(['K8s', 'CloudD']);
      expect(state).to.deep.include({ alert_subcategories: null, alert_sources: null });
      expect(state.event_categories).to.have.members(['App', 'Cloud', 'Compliance', 'K8sActivity']);
      const refreshed = (await tf.read(type, state)).state!;
      expect(refreshed.event_categories, 'a read keeps the older names').to.have.members([
        'App',
        'Cloud',
        'Compliance',
        'K8sActivity',
      ]);

      // Moving to the current arguments changes nothing on the platform, and the state follows.
      const now = rule({
        name: 'old words',
        alert_subcategories: ['Application', 'Cloud Activity', 'Compliance', 'Kubernetes Activity'],
        alert_sources: ['K8s', 'CloudD'],
      });
      expect(await warningsOf(now)).to.deep.equal([]);
      state = await converge(type, state, now);
      expect(state).to.deep.include({ event_categories: null, sources: null });
      expect(state.alert_subcategories).to.have.members([
        'Application',
        'Cloud Activity',
        'Compliance',
        'Kubernetes Activity',
      ]);
      expect(stored().subCategory).to.have.members([
        'Application',
        'Cloud Activity',
        'Compliance',
        'Kubernetes Activity',
      ]);

      // An import reads into the current arguments.
      const imported = await tf.importState(type, state.id as string);
      expect(imported).to.deep.include({ event_categories: null, sources: null });
      expect(imported.alert_subcategories).to.have.members([
        'Application',
        'Cloud Activity',
        'Compliance',
        'Kubernetes Activity',
      ]);
      await destroy(type, state);
    });

    it('one of each pair, not both: refused at validation, at the deprecated argument', async () => {
      const err = await tf
        .validateResource(
          type,
          cfg(
            type,
            rule({
              alert_subcategories: ['Compliance'],
              event_categories: ['Compliance'],
              alert_sources: ['Agent'],
              sources: ['Agent'],
            }),
          ),
        )
        .then(
          () => null,
          (e: unknown) => e as ProviderCallError,
        );
      expect(err!.diagnostics.map((d) => `${d.summary} at ${d.path}`)).to.have.members([
        'Conflicting arguments at event_categories',
        'Conflicting arguments at sources',
      ]);
    });
  });

  it('a name every object has (constructor, toString, __proto__) is no subcategory: refused at the argument at validation and plan', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      for (const argument of ['event_categories', 'alert_subcategories']) {
        const config = cfg(type, rule({ [argument]: ['Compliance', name] }));
        const before = tf.received.length;
        const validated = await tf.validateResource(type, config).then(
          () => null,
          (e: unknown) => e as ProviderCallError,
        );
        const errors = (validated?.diagnostics ?? []).map((d) => `${d.summary} at ${d.path}: ${d.detail}`);
        expect(errors, `${argument} = ["${name}"]`).to.have.length(1);
        expect(errors[0]).to.match(new RegExp(`^Invalid value for "${argument}" at ${argument}: .*"${name}"`));
        const warnings = tf.received.slice(before).filter((d) => d.severity === 'warning');
        expect(
          warnings.map((d) => d.summary),
          'no older name is taken for a current one',
        ).to.not.include('Deprecated value');
        const planned = await tf.plan(type, null, config).then(
          () => null,
          (e: unknown) => e,
        );
        expect(planned, `${argument} = ["${name}"] at plan`).to.be.instanceOf(ProviderCallError);
        expect((planned as ProviderCallError).diagnostics.map((d) => `${d.summary} at ${d.path}`)).to.deep.equal([
          `Invalid value for "${argument}" at ${argument}`,
        ]);
      }
    }
    expect(emulator.list('AlertRules')).to.deep.equal([]);
  });

  describe('sec_data_export_rule', () => {
    const t = 'sec_data_export_rule';
    it('exports to object-store channels: create, update, import, drift, destroy; other channels are refused', async () => {
      const store = (
        await converge('sec_alert_channel_cloud_a_object_store', null, {
          name: 'exports',
          bucket_arn: 'arn:cloud-a:s3:::exports',
          credentials: [{ external_id: 'e', role_arn: 'arn:cloud-a:iam::123456789012:role/e' }],
        })
      ).intg_guid as string;
      let state = await converge(t, null, { name: 'lake', integration_ids: [store] });
      expect(state).to.deep.include({
        name: 'lake',
        enabled: true,
        type: 'Dataexport',
        guid: state.id,
        description: null,
        integration_ids: [store],
      });
      expect(emulator.get('DataExportRules', state.id as string)).to.deep.include({
        type: 'Dataexport',
        intgGuidList: [store],
      });
      state = await converge(t, state, {
        name: 'lake',
        integration_ids: [store],
        enabled: false,
        description: 'paused',
      });
      expect(
        emulator.get<{ filters: Record<string, unknown> }>('DataExportRules', state.id as string)!.filters,
      ).to.deep.include({ enabled: 0, description: 'paused' });
      const imported = await tf.importState(t, state.id as string);
      expect(imported).to.deep.include({
        name: 'lake',
        enabled: false,
        description: 'paused',
        integration_ids: [store],
      });
      emulator.remove('DataExportRules', state.id as string);
      expect((await tf.read(t, state)).state).to.equal(null);

      const config = cfg(t, { name: 'to a webhook', integration_ids: [channel] });
      const found = await missingAtPlanRefusedAtApply(tf, t, config);
      expect(found.map((d) => [d.summary, d.path])).to.deep.equal([['Names no existing object', 'integration_ids']]);
      expect(found[0]!.detail).to.match(/is none of the object-store alert channels the platform holds/);
    });
  });
});
