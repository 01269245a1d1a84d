/**
 * Alert profiles, policies, policy exceptions and managed policies through the real provider
 * executable and the Terraform-side client (Terraform's own plan/apply/read checks), against the
 * in-process emulator: create, empty re-plan, in-place update, replacement, import, drift, destroy,
 * and validation errors with their attribute paths.
 */
import { expect } from 'chai';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { secClientFor, startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { missingAtPlanRefusedAtApply } from '../../support/missing-objects.js';
import { type TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';

interface ProfileRecord {
  alertProfileId: string;
  extends: string;
  fields: { name: string }[];
  alerts: { name: string; eventName: string; description: string; subject: string }[];
}
interface PolicyRecord {
  policyId: string;
  title: string;
  severity: string;
  enabled: boolean;
  limit: number;
  evalFrequency: string;
  alertEnabled: boolean;
  alertProfile: string;
  tags: string[];
  queryId: string;
}
interface ExceptionRecord {
  exceptionId: string;
  policyId: string;
  description: string;
  constraints: { fieldKey: string; fieldValues: unknown[] }[];
}

describe('sec policies family through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;

  before(async () => {
    sec = await startSecProvider({ account: 'acme' });
    ({ emulator, tf } = sec);
  });
  after(() => sec?.close());

  const cfg = (type: string, plain: Record<string, unknown>) => configValue(tf.resourceSchema(type).block, plain);

  /** Plan and apply `plain`, then require an empty re-plan; returns the new state. */
  async function converge(
    type: string,
    prior: ObjectValue | null,
    plain: Record<string, unknown>,
  ): Promise<ObjectValue> {
    const config = cfg(type, plain);
    await tf.validateResource(type, config);
    const change = await tf.plan(type, prior, config);
    const { state } = await tf.apply(type, prior, change, config);
    expectNoChanges(type, state!, await tf.plan(type, state, config));
    return state!;
  }

  function expectNoChanges(
    type: string,
    state: ObjectValue,
    change: { planned: ObjectValue | null; requiresReplace: unknown[] },
  ): void {
    expect(change.requiresReplace).to.deep.equal([]);
    expect(
      valueEquals(impliedType(tf.resourceSchema(type).block), change.planned, state),
      `re-plan of ${type} must be empty`,
    ).to.equal(true);
  }

  async function destroy(type: string, state: ObjectValue): Promise<void> {
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  }

  async function validationErrors(
    type: string,
    plain: Record<string, unknown>,
  ): Promise<{ path: string; summary: string; detail: string }[]> {
    const err = await tf.validateResource(type, cfg(type, plain)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'validation must fail').to.be.instanceOf(ProviderCallError);
    return (err as ProviderCallError).diagnostics.map(({ path, summary, detail }) => ({ path, summary, detail }));
  }

  async function planErrors(
    type: string,
    plain: Record<string, unknown>,
  ): Promise<{ path: string; summary: string; detail: string }[]> {
    const err = await tf.plan(type, null, cfg(type, plain)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the plan must fail').to.be.instanceOf(ProviderCallError);
    return (err as ProviderCallError).diagnostics.map(({ path, summary, detail }) => ({ path, summary, detail }));
  }

  const violation = {
    name: 'Violation',
    event_name: 'Bucket exposed',
    description: 'Bucket {{RESOURCE_ID}} is public',
    subject: '{{_OCCURRENCE}} in {{ACCOUNT_ID}}',
  };
  const profileConfig = (extra: Record<string, unknown> = {}) => ({
    name: 'CUSTOM_BUCKETS',
    extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
    alert: [violation],
    ...extra,
  });

  describe('sec_alert_profile', () => {
    const type = 'sec_alert_profile';

    it('creates, updates templates in place, imports, shows drift and deletes', async () => {
      let state = await converge(type, null, profileConfig());
      expect(state).to.deep.include({
        id: 'CUSTOM_BUCKETS',
        name: 'CUSTOM_BUCKETS',
        extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
      });
      expect(state.fields).to.include.members(['_OCCURRENCE', 'ACCOUNT_ID', 'RESOURCE_ID']);
      const stored = emulator.get<ProfileRecord>('AlertProfiles', 'CUSTOM_BUCKETS')!;
      expect(stored.extends).to.equal('SEC_CFG_CLOUD_A_DEFAULT_PROFILE');
      expect(stored.alerts).to.deep.equal([
        {
          name: 'Violation',
          eventName: 'Bucket exposed',
          description: 'Bucket {{RESOURCE_ID}} is public',
          subject: '{{_OCCURRENCE}} in {{ACCOUNT_ID}}',
        },
      ]);

      const second = {
        name: 'NewViolation',
        event_name: 'New bucket exposed',
        description: 'New: {{RESOURCE_ID}}',
        subject: 'New {{_OCCURRENCE}}',
      };
      emulator.clearRequests();
      state = await converge(
        type,
        state,
        profileConfig({ alert: [{ ...violation, event_name: 'Bucket exposed (EU)' }, second] }),
      );
      const patch = emulator.requests.find((r) => r.method === 'PATCH');
      expect(patch?.path).to.equal('/api/v2/AlertProfiles/CUSTOM_BUCKETS');
      expect(Object.keys(patch!.body as object)).to.deep.equal(['alerts']);
      expect(
        emulator.get<ProfileRecord>('AlertProfiles', 'CUSTOM_BUCKETS')!.alerts.map((a) => a.eventName),
      ).to.have.members(['Bucket exposed (EU)', 'New bucket exposed']);

      const imported = await tf.importState(type, 'CUSTOM_BUCKETS');
      expect(imported).to.deep.include({
        id: 'CUSTOM_BUCKETS',
        name: 'CUSTOM_BUCKETS',
        extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
      });
      expect(imported.alert).to.have.length(2);
      expectNoChanges(
        type,
        imported,
        await tf.plan(
          type,
          imported,
          cfg(type, profileConfig({ alert: [{ ...violation, event_name: 'Bucket exposed (EU)' }, second] })),
        ),
      );

      // Templates edited outside Terraform show in the next read.
      emulator.put('AlertProfiles', 'CUSTOM_BUCKETS', {
        ...emulator.get<ProfileRecord>('AlertProfiles', 'CUSTOM_BUCKETS')!,
        alerts: [{ ...stored.alerts[0]!, subject: 'edited in the UI' }],
      });
      const drifted = (await tf.read(type, state)).state!;
      expect(drifted.alert).to.deep.equal([
        {
          name: 'Violation',
          event_name: 'Bucket exposed',
          description: 'Bucket {{RESOURCE_ID}} is public',
          subject: 'edited in the UI',
        },
      ]);

      await destroy(type, drifted);
      expect(emulator.get('AlertProfiles', 'CUSTOM_BUCKETS')).to.equal(undefined);
      expect((await tf.read(type, drifted)).state).to.equal(null);
    });

    it('replaces the profile when name or extends change (the platform cannot change them)', async () => {
      const state = await converge(type, null, profileConfig({ name: 'CUSTOM_REPLACE' }));
      const rename = await tf.plan(type, state, cfg(type, profileConfig({ name: 'CUSTOM_REPLACE_2' })));
      expect(rename.requiresReplace).to.deep.equal([[{ attr: 'name' }]]);
      const rebase = await tf.plan(
        type,
        state,
        cfg(
          type,
          profileConfig({
            name: 'CUSTOM_REPLACE',
            extends: 'SEC_HE_FILES_DEFAULT_PROFILE',
            alert: [{ ...violation, description: 'File {{FILE_NAME}}', subject: '{{_OCCURRENCE}}' }],
          }),
        ),
      );
      expect(rebase.requiresReplace).to.deep.equal([[{ attr: 'extends' }]]);
      await destroy(type, state);
    });

    it('rejects reserved names and duplicate templates at validation and unknown fields at plan; names unknown bases at plan, refuses them at apply', async () => {
      const reserved = await validationErrors(type, profileConfig({ name: 'SEC_MINE' }));
      expect(reserved.map((d) => d.path)).to.deep.equal(['name']);
      expect(reserved[0]!.detail).to.match(/reserved/);
      const dotted = await validationErrors(type, profileConfig({ name: 'has.dot' }));
      expect(dotted.map((d) => d.path)).to.deep.equal(['name']);
      const duplicate = await validationErrors(
        type,
        profileConfig({ alert: [violation, { ...violation, subject: 'other' }] }),
      );
      expect(duplicate).to.deep.include({
        path: 'alert',
        summary: 'Duplicate alert template',
        detail: duplicate[0]!.detail,
      });

      const [unknownBase] = await missingAtPlanRefusedAtApply(
        tf,
        type,
        cfg(type, profileConfig({ name: 'CUSTOM_ORPHAN', extends: 'NO_SUCH_PROFILE' })),
      );
      expect(unknownBase).to.include({ path: 'extends', summary: 'Names no existing object' });
      expect(unknownBase!.detail).to.match(
        /^"NO_SUCH_PROFILE" is none of the alert profiles the platform holds\. It holds "SEC_BaseProfile"/,
      );
      const badFields = await planErrors(
        type,
        profileConfig({ name: 'CUSTOM_BADFIELD', alert: [{ ...violation, subject: '{{PROJECT_ID}} {{account_id}}' }] }),
      );
      expect(badFields.map((d) => [d.path, d.summary])).to.deep.equal([
        ['alert', 'Unknown profile field'],
        ['alert', 'Unknown profile field'],
      ]);
      expect(badFields[0]!.detail).to.match(
        /^\{\{PROJECT_ID\}\} in an alert's subject is not a field of SEC_CFG_CLOUD_A_DEFAULT_PROFILE; its fields: `_OCCURRENCE`/,
      );
      expect(badFields[1]!.detail).to.match(/^\{\{account_id\}\} .* \(field names are exact: \{\{ACCOUNT_ID\}\}\)/);
      // What the provider refuses before sending, the platform refuses too.
      const refused = await secClientFor(emulator)
        .alertProfiles.create({
          alertProfileId: 'CUSTOM_ORPHAN',
          extends: 'NO_SUCH_PROFILE',
          alerts: [{ name: 'Violation', eventName: 'Bucket exposed', description: 'd', subject: 's' }],
        })
        .then(
          () => null,
          (e: unknown) => e as Error,
        );
      expect(refused?.message).to.match(/no alert profile "NO_SUCH_PROFILE" to extend/);
      expect(emulator.get('AlertProfiles', 'CUSTOM_ORPHAN')).to.equal(undefined);
    });
  });

  describe('sec_policy', () => {
    const type = 'sec_policy';
    const policyConfig = (extra: Record<string, unknown> = {}) => ({
      title: 'Public buckets',
      query_id: 'SEC_Global_CloudA_Config_RootMfaNotEnabled',
      description: 'Buckets readable by anyone',
      remediation: 'Remove public access',
      severity: 'High',
      type: 'Violation',
      policy_id_suffix: 'buckets-1',
      tags: ['team:storage'],
      alerting: [{ profile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation' }],
      ...extra,
    });

    it('creates with a suffix, keeps the configured severity form, updates in place, imports and deletes', async () => {
      let state = await converge(type, null, policyConfig());
      expect(state).to.deep.include({
        id: 'acme-buckets-1',
        severity: 'High',
        evaluation: 'Hourly',
        limit: 1000,
        enabled: true,
        policy_id_suffix: 'buckets-1',
        computed_tags: 'team:storage',
      });
      expect(state.alerting).to.deep.equal([
        { enabled: true, profile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation' },
      ]);
      expect(state.owner).to.be.a('string').and.not.empty;
      expect(emulator.get<PolicyRecord>('Policies', 'acme-buckets-1')).to.deep.include({
        severity: 'high',
        alertEnabled: true,
        alertProfile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation',
        evalFrequency: 'Hourly',
        limit: 1000,
        enabled: true,
      });
      // The platform's lower-case form is no difference.
      expectNoChanges(type, state, await tf.plan(type, state, cfg(type, policyConfig({ severity: 'high' }))));

      emulator.clearRequests();
      state = await converge(
        type,
        state,
        policyConfig({
          title: 'Public buckets (all)',
          tags: null,
          alerting: [],
          evaluation: 'Daily',
          limit: 50,
          enabled: false,
        }),
      );
      expect(state.id).to.equal('acme-buckets-1');
      expect(state.tags).to.equal(null);
      expect(emulator.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).to.deep.equal([
        '/api/v2/Policies/acme-buckets-1',
      ]);
      expect(emulator.get<PolicyRecord>('Policies', 'acme-buckets-1')).to.deep.include({
        title: 'Public buckets (all)',
        alertEnabled: false,
        alertProfile: '',
        evalFrequency: 'Daily',
        limit: 50,
        enabled: false,
        tags: [],
      });

      const suffixChange = await tf.plan(type, state, cfg(type, policyConfig({ policy_id_suffix: 'buckets-2' })));
      expect(suffixChange.requiresReplace).to.deep.include([{ attr: 'policy_id_suffix' }]);

      // Import recovers every field, the suffix included, so the configuration plans no change.
      const current = policyConfig({
        title: 'Public buckets (all)',
        tags: null,
        alerting: [],
        evaluation: 'Daily',
        limit: 50,
        enabled: false,
      });
      const imported = await tf.importState(type, 'acme-buckets-1');
      expect(imported).to.deep.include({
        id: 'acme-buckets-1',
        policy_id_suffix: 'buckets-1',
        title: 'Public buckets (all)',
        severity: 'high',
        tags: null,
      });
      expectNoChanges(type, imported, await tf.plan(type, imported, cfg(type, current)));

      await destroy(type, state);
      expect(emulator.get('Policies', 'acme-buckets-1')).to.equal(undefined);
    });

    it('numbers a policy without suffix, and its import leaves the suffix unset', async () => {
      const state = await converge(type, null, policyConfig({ policy_id_suffix: null, alerting: [] }));
      expect(state.id).to.match(/^acme-\d+$/);
      expect(state.policy_id_suffix).to.equal(null);
      const imported = await tf.importState(type, state.id as string);
      expect(imported.policy_id_suffix).to.equal(null);
      expect(imported.alerting).to.deep.equal([]);
      await destroy(type, state);
    });

    it('shows tags, alerting and severity changed outside Terraform', async () => {
      const state = await converge(type, null, policyConfig({ policy_id_suffix: 'drift' }));
      const stored = emulator.get<PolicyRecord>('Policies', 'acme-drift')!;
      emulator.put('Policies', 'acme-drift', {
        ...stored,
        tags: ['team:storage', 'added:ui'],
        alertEnabled: false,
        severity: 'low',
      });
      const drifted = (await tf.read(type, state)).state!;
      expect(drifted.tags).to.have.members(['team:storage', 'added:ui']);
      expect(drifted.alerting).to.deep.equal([
        { enabled: false, profile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation' },
      ]);
      expect(drifted.severity).to.equal('low');
      const repair = await tf.plan(type, drifted, cfg(type, policyConfig({ policy_id_suffix: 'drift' })));
      expect(repair.requiresReplace).to.deep.equal([]);
      expect(repair.planned!.severity).to.equal('High');
      emulator.remove('Policies', 'acme-drift');
      expect((await tf.read(type, drifted)).state).to.equal(null);
    });

    it('rejects bad values with attribute paths, and unknown queries, alert profiles and templates at plan', async () => {
      const errors = await validationErrors(
        type,
        policyConfig({
          severity: 'Severe',
          type: 'Compliance',
          limit: 6000,
          policy_id_suffix: 'Bad_Suffix',
          evaluation: 'Weekly',
          alerting: [{ profile: 'SEC_CloudATrail_Alerts.' }],
        }),
      );
      expect(errors.map((d) => d.path).sort()).to.deep.equal([
        'alerting[0].profile',
        'evaluation',
        'limit',
        'policy_id_suffix',
        'severity',
        'type',
      ]);
      expect(errors.find((d) => d.path === 'severity')!.detail).to.match(/"Critical", "High", "Medium", "Low", "Info"/);
      expect(errors.find((d) => d.path === 'alerting[0].profile')!.detail).to.match(
        /`<profile>` or `<profile>\.<template>`/,
      );
      // A bare profile passes validation (the platform accepts it); an unknown one is named at plan and refused at apply.
      await tf.validateResource(type, cfg(type, policyConfig({ alerting: [{ profile: 'SEC_CloudATrail_Alerts' }] })));
      // An empty suffix is no suffix (upstream's example defaults it to "").
      await tf.validateResource(type, cfg(type, policyConfig({ policy_id_suffix: '' })));
      for (const profile of ['NO_SUCH', 'NO_SUCH.Violation']) {
        const [unknown] = await missingAtPlanRefusedAtApply(
          tf,
          type,
          cfg(type, policyConfig({ policy_id_suffix: 'orphan', alerting: [{ profile }] })),
        );
        expect(unknown).to.include({ path: 'alerting[0].profile', summary: 'Unknown alert profile' });
        expect(unknown!.detail).to.match(/^No alert profile is named "NO_SUCH"\. The platform has `SEC_/);
      }
      const [template] = await planErrors(
        type,
        policyConfig({ policy_id_suffix: 'orphan', alerting: [{ profile: 'SEC_CloudATrail_Alerts.NoSuchTemplate' }] }),
      );
      expect(template).to.include({ path: 'alerting[0].profile', summary: 'Unknown alert template' });
      expect(template!.detail).to.match(
        /^The alert profile SEC_CloudATrail_Alerts has no template "NoSuchTemplate"; its templates: `/,
      );
      const [query] = await missingAtPlanRefusedAtApply(
        tf,
        type,
        cfg(type, policyConfig({ policy_id_suffix: 'orphan', query_id: 'SEC_Global_CloudA_Trail' })),
      );
      expect(query).to.include({ path: 'query_id', summary: 'Names no existing object' });
      expect(query!.detail).to.match(
        /^"SEC_Global_CloudA_Trail" is none of the queries the platform holds\. It holds "SEC_Global_CloudA_Trail_/,
      );
      expect(emulator.get('Policies', 'acme-orphan')).to.equal(undefined);
    });

    it('alerts through a custom alert profile it depends on', async () => {
      const profile = await converge('sec_alert_profile', null, profileConfig({ name: 'CUSTOM_FOR_POLICY' }));
      const state = await converge(
        type,
        null,
        policyConfig({
          policy_id_suffix: 'custom',
          alerting: [{ profile: 'CUSTOM_FOR_POLICY.Violation', enabled: false }],
        }),
      );
      expect(emulator.get<PolicyRecord>('Policies', 'acme-custom')).to.deep.include({
        alertProfile: 'CUSTOM_FOR_POLICY.Violation',
        alertEnabled: false,
      });
      await destroy(type, state);
      await destroy('sec_alert_profile', profile);
    });
  });

  describe('sec_policy_exception', () => {
    const type = 'sec_policy_exception';
    let policy: ObjectValue;
    const exceptionConfig = (extra: Record<string, unknown> = {}) => ({
      policy_id: 'acme-exc',
      description: 'Sandbox accounts',
      constraint: [
        { field_key: 'accountIds', field_values: [' 111111111111', '222222222222'] },
        { field_key: 'resourceTags', field_values_map: [{ key: 'env', value: ['sandbox', 'dev'] }] },
      ],
      ...extra,
    });

    before(async () => {
      policy = await converge('sec_policy', null, {
        title: 'For exceptions',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'Low',
        type: 'Violation',
        policy_id_suffix: 'exc',
      });
      await converge('sec_policy', null, {
        title: 'Another for exceptions',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'Low',
        type: 'Violation',
        policy_id_suffix: 'exc2',
      });
    });

    it('creates, updates in place, imports with policy:exception, shows drift and deletes', async () => {
      let state = await converge(type, null, exceptionConfig());
      const id = state.id as string;
      expect(state.policy_id).to.equal('acme-exc');
      const stored = emulator.get<ExceptionRecord>('Exceptions', id)!;
      expect(stored.policyId).to.equal('acme-exc');
      // Values are trimmed on the way to the platform; the configured form stays in state.
      expect(stored.constraints).to.have.deep.members([
        { fieldKey: 'accountIds', fieldValues: ['111111111111', '222222222222'] },
        { fieldKey: 'resourceTags', fieldValues: [{ key: 'env', value: ['sandbox', 'dev'] }] },
      ]);
      expect((state.constraint as ObjectValue[]).find((c) => c.field_key === 'accountIds')!.field_values).to.deep.equal(
        [' 111111111111', '222222222222'],
      );

      emulator.clearRequests();
      state = await converge(type, state, exceptionConfig({ description: 'Sandbox and dev accounts' }));
      expect(state.id).to.equal(id);
      expect(emulator.requests.filter((r) => r.method === 'PATCH').map((r) => `${r.path}`)).to.have.length(1);
      expect(emulator.get<ExceptionRecord>('Exceptions', id)!.description).to.equal('Sandbox and dev accounts');

      const move = await tf.plan(type, state, cfg(type, exceptionConfig({ policy_id: 'acme-exc2' })));
      expect(move.requiresReplace).to.deep.equal([[{ attr: 'policy_id' }]]);

      const imported = await tf.importState(type, `acme-exc:${id}`);
      expect(imported).to.deep.include({ id, policy_id: 'acme-exc', description: 'Sandbox and dev accounts' });
      expect(imported.constraint).to.have.length(2);
      const trimmedConfig = exceptionConfig({
        description: 'Sandbox and dev accounts',
        constraint: [
          { field_key: 'accountIds', field_values: ['111111111111', '222222222222'] },
          { field_key: 'resourceTags', field_values_map: [{ key: 'env', value: ['sandbox', 'dev'] }] },
        ],
      });
      expectNoChanges(type, imported, await tf.plan(type, imported, cfg(type, trimmedConfig)));

      const badId = await tf.importState(type, 'just-one-part').then(
        () => null,
        (e: unknown) => e as ProviderCallError,
      );
      expect(badId!.diagnostics[0]!.detail).to.match(/<policy_id>:<exception_id>/);

      // Constraints edited outside Terraform show in the next read (upstream never refreshed them).
      emulator.put('Exceptions', id, {
        ...emulator.get<ExceptionRecord>('Exceptions', id)!,
        constraints: [{ fieldKey: 'accountIds', fieldValues: ['333333333333'] }],
      });
      const drifted = (await tf.read(type, state)).state!;
      expect(drifted.constraint).to.deep.equal([
        { field_key: 'accountIds', field_values: ['333333333333'], field_values_map: [], field_value_map: [] },
      ]);

      await destroy(type, drifted);
      expect(emulator.get('Exceptions', id)).to.equal(undefined);
    });

    it('accepts the deprecated field_value_map with a warning', async () => {
      const config = exceptionConfig({
        constraint: [{ field_key: 'resourceTags', field_value_map: [{ key: 'owner', value: 'qa' }] }],
      });
      tf.received.length = 0;
      const state = await converge(type, null, config);
      expect(
        tf.received.some(
          (d) =>
            d.severity === 'warning' &&
            d.summary === 'Block "constraint.field_value_map" is deprecated' &&
            d.path === 'constraint',
        ),
      ).to.equal(true);
      expect(emulator.get<ExceptionRecord>('Exceptions', state.id as string)!.constraints).to.deep.equal([
        { fieldKey: 'resourceTags', fieldValues: [{ key: 'owner', value: 'qa' }] },
      ]);
      expect(
        tf.resourceSchema(type).block.blockTypes.constraint!.block.blockTypes.field_value_map!.block.deprecated,
      ).to.equal(true);
      await destroy(type, state);
    });

    it('rejects conflicting, duplicate and empty constraints at validation, and unknown policies and keys at plan', async () => {
      const conflict = await validationErrors(
        type,
        exceptionConfig({
          constraint: [
            { field_key: 'resourceTags', field_values: ['x'], field_values_map: [{ key: 'env', value: ['a'] }] },
          ],
        }),
      );
      expect(conflict).to.have.length(1);
      expect(conflict[0]).to.include({ path: 'constraint', summary: 'Conflicting constraint values' });
      const duplicate = await validationErrors(
        type,
        exceptionConfig({
          constraint: [
            { field_key: 'accountIds', field_values: ['1'] },
            { field_key: 'accountIds', field_values: ['2'] },
          ],
        }),
      );
      expect(duplicate[0]).to.include({ path: 'constraint', summary: 'Duplicate constraint' });

      const empty = await validationErrors(type, exceptionConfig({ constraint: [{ field_key: 'accountIds' }] }));
      expect(empty[0]).to.include({ path: 'constraint', summary: 'Invalid constraint' });
      // The policies decide the rest, at plan (resources/sec/policy/exception-catalogue.ts).
      const noPolicy = await missingAtPlanRefusedAtApply(
        tf,
        type,
        cfg(type, exceptionConfig({ policy_id: 'acme-missing' })),
      );
      expect(noPolicy).to.deep.equal([
        { path: 'policy_id', summary: 'Unknown policy', detail: 'No policy has the id "acme-missing".' },
      ]);
      const prefix = await missingAtPlanRefusedAtApply(tf, type, cfg(type, exceptionConfig({ policy_id: 'acme-ex' })));
      expect(prefix).to.deep.equal([
        {
          path: 'policy_id',
          summary: 'Unknown policy',
          detail:
            'No policy has the id "acme-ex". Ids that begin with it: `acme-exc`, `acme-exc2`; the id must be given whole.',
        },
      ]);
      const badKey = await planErrors(
        type,
        exceptionConfig({ constraint: [{ field_key: 'projectIds', field_values: ['p'] }] }),
      );
      expect(badKey).to.have.length(1);
      expect(badKey[0]).to.include({ path: 'constraint', summary: 'Unknown constraint' });
      expect(badKey[0]!.detail).to.match(
        /^Policy acme-exc has no exception constraint "projectIds"; its constraints: `/,
      );
      const tagsAsText = await planErrors(
        type,
        exceptionConfig({ constraint: [{ field_key: 'resourceTags', field_values: ['env=sandbox'] }] }),
      );
      expect(tagsAsText).to.deep.equal([
        {
          path: 'constraint',
          summary: 'Invalid constraint values',
          detail:
            'The constraint "resourceTags" holds key/value pairs: give them as ' +
            '`field_values_map { key = "..." value = ["..."] }`, not field_values.',
        },
      ]);
      expect(emulator.list<ExceptionRecord>('Exceptions').filter((e) => e.policyId === 'acme-exc')).to.deep.equal([]);
    });

    it('goes away with its policy', async () => {
      const state = await converge(type, null, exceptionConfig());
      await destroy('sec_policy', policy);
      expect(emulator.get('Exceptions', state.id as string)).to.equal(undefined);
      expect((await tf.read(type, state)).state).to.equal(null);
    });
  });

  describe('sec_managed_policies', () => {
    const type = 'sec_managed_policies';
    const setting = (id: string) => {
      const p = emulator.get<PolicyRecord>('Policies', id)!;
      return { enabled: p.enabled, severity: p.severity };
    };

    it('changes built-in policies in bulk, restores released ones on update and all on destroy', async () => {
      const originals = {
        'platform-global-75': setting('platform-global-75'),
        'platform-global-76': setting('platform-global-76'),
        'platform-global-77': setting('platform-global-77'),
      };
      // Compliance policies of the catalogue ship disabled.
      expect(originals).to.deep.equal({
        'platform-global-75': { enabled: false, severity: 'low' },
        'platform-global-76': { enabled: false, severity: 'medium' },
        'platform-global-77': { enabled: false, severity: 'medium' },
      });

      emulator.clearRequests();
      let state = await converge(type, null, {
        policy: [
          { id: 'platform-global-75', enabled: true, severity: 'High' },
          { id: 'platform-global-76', enabled: true, severity: 'Critical' },
        ],
      });
      expect(state.id).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \+0000 UTC$/);
      expect(emulator.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).to.deep.equal([
        '/api/v2/Policies',
      ]);
      expect(setting('platform-global-75')).to.deep.equal({ enabled: true, severity: 'high' });
      expect(setting('platform-global-76')).to.deep.equal({ enabled: true, severity: 'critical' });
      expect(state.original_settings).to.deep.equal([
        { id: 'platform-global-75', enabled: false, severity: 'low' },
        { id: 'platform-global-76', enabled: false, severity: 'medium' },
      ]);
      expect((state.policy as ObjectValue[]).map((p) => p.severity)).to.have.members(['High', 'Critical']);

      // Drop 76 (restored), add 77 (captured), change 75.
      state = await converge(type, state, {
        policy: [
          { id: 'platform-global-75', enabled: false, severity: 'Info' },
          { id: 'platform-global-77', enabled: true, severity: 'High' },
        ],
      });
      expect(setting('platform-global-75')).to.deep.equal({ enabled: false, severity: 'info' });
      expect(setting('platform-global-76')).to.deep.equal(originals['platform-global-76']);
      expect(setting('platform-global-77')).to.deep.equal({ enabled: true, severity: 'high' });
      expect(state.original_settings).to.deep.equal([
        { id: 'platform-global-75', enabled: false, severity: 'low' },
        { id: 'platform-global-77', ...originals['platform-global-77'] },
      ]);

      // A change made in the UI shows in the next read.
      emulator.put('Policies', 'platform-global-77', {
        ...emulator.get<PolicyRecord>('Policies', 'platform-global-77')!,
        severity: 'critical',
      });
      const drifted = (await tf.read(type, state)).state!;
      expect((drifted.policy as ObjectValue[]).find((p) => p.id === 'platform-global-77')!.severity).to.equal(
        'critical',
      );
      expect((drifted.policy as ObjectValue[]).find((p) => p.id === 'platform-global-75')!.severity).to.equal('Info');

      await destroy(type, drifted);
      for (const [id, original] of Object.entries(originals)) expect(setting(id), id).to.deep.equal(original);
    });

    it('rejects custom policy ids, duplicates and bad severities with paths; names unknown policies at plan, refuses them at apply', async () => {
      const errors = await validationErrors(type, {
        policy: [
          { id: 'acme-1', enabled: true, severity: 'High' },
          { id: 'platform-global-1', enabled: true, severity: 'Severe' },
          { id: 'platform-global-1', enabled: false, severity: 'Low' },
        ],
      });
      // `policy` is a set block: its elements cannot be addressed, so problems are reported on it.
      expect(errors.map((d) => `${d.path}: ${d.summary}`).sort()).to.deep.equal([
        'policy: Duplicate policy',
        'policy: Invalid value for "policy.id"',
        'policy: Invalid value for "policy.severity"',
      ]);
      const before = setting('platform-global-1');
      const unknown = await missingAtPlanRefusedAtApply(
        tf,
        type,
        cfg(type, {
          policy: [
            { id: 'platform-global-1', enabled: false, severity: 'Info' },
            { id: 'platform-global-9999', enabled: true, severity: 'High' },
            { id: 'platform-global-2', enabled: true, severity: 'High' },
            { id: 'platform-global-', enabled: true, severity: 'High' },
          ],
        }),
      );
      // A set's elements have no paths: both are the block's, in the set's order.
      expect(unknown.map((d) => `${d.path}: ${d.summary}: ${d.detail.slice(0, 90)}`).sort()).to.deep.equal([
        'policy: Unknown policy: No policy has the id "platform-global-". Ids that begin with it: `platform-global-1`, `pla',
        'policy: Unknown policy: No policy has the id "platform-global-9999".',
      ]);
      expect(setting('platform-global-1')).to.deep.equal(before);
    });
  });
});
