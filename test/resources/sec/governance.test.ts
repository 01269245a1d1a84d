/**
 * Report rules, resource groups, team members, vulnerability exceptions and the agent access token
 * data source, through the real provider executable and the Terraform-side client (which applies
 * Terraform's own plan, apply and read checks), against the in-process emulator.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import {
  TerraformClient,
  configValue,
  ProviderCallError,
  type WireDiagnostic,
} from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import { UNKNOWN, type ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { describeProvider } from '../../pulumi-model/description.js';
import { buildPulumiSchemaWithReport } from '../../pulumi-model/schema.js';
import { parseSeed } from '../../golden/seed-parser.js';
import { readFixture } from '../../support/fixtures.js';
import { compareWithSeed } from '../../golden/seed-compare.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
type Plain = Record<string, unknown>;
type Stored = Record<string, any>;

async function failure(promise: Promise<unknown>): Promise<WireDiagnostic[]> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the call must fail').to.be.instanceOf(ProviderCallError);
  return (err as ProviderCallError).diagnostics;
}

/** A client bound to one provider instance, with the converge/no-op helpers every test uses. */
function helpers(get: () => TerraformClient) {
  const cfg = (type: string, plain: Plain) => configValue(get().resourceSchema(type).block, plain);
  const planIsEmpty = async (type: string, state: ObjectValue, plain: Plain) => {
    const tf = get();
    const again = await tf.plan(type, state, cfg(type, plain));
    expect(again.requiresReplace, 'no replacement').to.deep.equal([]);
    expect(
      valueEquals(impliedType(tf.resourceSchema(type).block), again.planned, state),
      're-plan must be empty',
    ).to.equal(true);
  };
  const converge = async (type: string, prior: ObjectValue | null, plain: Plain): Promise<ObjectValue> => {
    const tf = get();
    const config = cfg(type, plain);
    await tf.validateResource(type, config);
    const change = await tf.plan(type, prior, config);
    const { state } = await tf.apply(type, prior, change, config);
    await planIsEmpty(type, state!, plain);
    return state!;
  };
  const destroy = async (type: string, state: ObjectValue) => {
    const tf = get();
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  };
  const validationErrors = (type: string, plain: Plain) => failure(get().validateResource(type, cfg(type, plain)));
  const applyErrors = async (type: string, prior: ObjectValue | null, plain: Plain) => {
    const tf = get();
    const config = cfg(type, plain);
    return failure(tf.plan(type, prior, config).then((change) => tf.apply(type, prior, change, config)));
  };
  return { cfg, planIsEmpty, converge, destroy, validationErrors, applyErrors };
}

describe('sec governance resources through the Terraform-side client', function () {
  this.timeout(120_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  const { cfg, planIsEmpty, converge, destroy, validationErrors, applyErrors } = helpers(() => tf);

  before(async () => {
    emulator = await startSecEmulator({ subaccounts: ['dev', 'prod'] });
    tf = await TerraformClient.start(BIN, secProviderEnv(emulator));
    await tf.configure({});
  });
  after(async () => {
    await tf?.close();
    await emulator?.close();
  });

  describe('sec_report_rule', () => {
    const type = 'sec_report_rule';
    let channel: string;
    let otherChannel: string;
    const rule = (extra: Plain = {}): Plain => ({
      name: 'weekly',
      severities: ['critical', 'HIGH'],
      email_alert_channels: [channel],
      ...extra,
    });

    before(async () => {
      channel = (
        await converge('sec_alert_channel_email', null, { name: 'reports', recipients: ['reports@example.com'] })
      ).intg_guid as string;
      otherChannel = (
        await converge('sec_alert_channel_email', null, { name: 'reports-2', recipients: ['audit@example.com'] })
      ).intg_guid as string;
    });

    // The intended wiring (docs/api/sec.md, "Report notification keys"), written out independently of the
    // provider's own table: one flag, one key.
    const EXPECTED_KEYS: Record<string, Record<string, string>> = {
      cloud_a_compliance_reports: {
        pci: 'pci',
        cis_s3: 'cloudACisS3',
        soc: 'soc',
        soc_rev2: 'cloudASocRev2',
        hipaa: 'hipaa',
        iso_2700: 'iso2700',
        nist_800_171_rev2: 'nist800-171Rev2',
        nist_800_53_rev4: 'nist800-53Rev4',
      },
      cloud_b_compliance_reports: {
        pci: 'cloudBPci',
        pci_rev2: 'cloudBPciRev2',
        cis: 'cloudBCis',
        cis_12: 'cloudBCis12',
        soc: 'cloudBSoc',
        soc_rev2: 'cloudBSocRev2',
        hipaa: 'cloudBHipaa',
        hipaa_rev2: 'cloudBHipaaRev2',
        iso_27001: 'cloudBIso27001',
        k8s: 'cloudBK8s',
      },
      cloud_c_compliance_reports: { pci: 'cloudCPci', cis: 'cloudCCis', soc: 'cloudCSoc', cis_131: 'cloudCCis131' },
      daily_compliance_reports: {
        cloud_a_trail: 'cloudATrailEvents',
        cloud_a_compliance: 'cloudAComplianceEvents',
        cloud_c_activity_log: 'cloudCActivityLogEvents',
        cloud_c_compliance: 'cloudCComplianceEvents',
        cloud_b_audit_trail: 'cloudBAuditTrailEvents',
        cloud_b_compliance: 'cloudBComplianceEvents',
        cluster_distro_compliance: 'clusterDistroCompliance',
        cluster_distro_compliance_events: 'clusterDistroComplianceEvents',
        platform: 'platformEvents',
        host_security: 'agentEvents',
      },
    };
    const onKeys = (stored: Stored) =>
      Object.entries(stored.reportNotificationTypes as Record<string, boolean>)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort();

    it('creates a rule with the platform spellings on the wire and the configured ones in state', async () => {
      const state = await converge(
        type,
        null,
        rule({ description: 'weekly reports', cloud_a_compliance_reports: [{ pci: true }] }),
      );
      const stored = emulator.get<Stored>('ReportRules', state.id as string)!;
      expect(stored.filters).to.deep.include({
        name: 'weekly',
        description: 'weekly reports',
        enabled: 1,
        severity: [1, 2],
        resourceGroups: [],
      });
      expect(stored.intgGuidList).to.deep.equal([channel]);
      expect(Object.keys(stored.reportNotificationTypes)).to.have.length(33);
      expect(onKeys(stored)).to.deep.equal(['pci']);
      expect(state).to.deep.include({
        id: state.guid,
        type: 'Report',
        enabled: true,
        weekly_snapshot: null,
        severities: ['critical', 'HIGH'],
      });
      expect(state.cloud_b_compliance_reports).to.deep.equal([]);
      await destroy(type, state);
      expect(emulator.get('ReportRules', state.id as string)).to.equal(undefined);
    });

    it('sends every report flag, and only it, to its own API key', async () => {
      let state = await converge(type, null, rule({ weekly_snapshot: true }));
      expect(onKeys(emulator.get<Stored>('ReportRules', state.id as string)!)).to.deep.equal(['trendReport']);
      for (const [blockName, flags] of Object.entries(EXPECTED_KEYS)) {
        for (const [flag, key] of Object.entries(flags)) {
          state = await converge(type, state, rule({ [blockName]: [{ [flag]: true }] }));
          expect(
            onKeys(emulator.get<Stored>('ReportRules', state.id as string)!),
            `${blockName}.${flag}`,
          ).to.deep.equal([key]);
        }
      }
      await destroy(type, state);
    });

    it('updates in place, imports with an empty plan, refreshes reports changed behind its back, and notices deletion', async () => {
      const first = rule({
        daily_compliance_reports: [{ host_security: true, cloud_a_compliance: true }],
        weekly_snapshot: false,
      });
      let state = await converge(type, null, first);
      const guid = state.id as string;
      const second = rule({
        name: 'weekly-eu',
        severities: ['medium'],
        enabled: false,
        email_alert_channels: [channel, otherChannel],
        daily_compliance_reports: [{ cloud_a_compliance: true }],
        cloud_c_compliance_reports: [{}],
      });
      state = await converge(type, state, second);
      expect(state.id).to.equal(guid);
      const stored = emulator.get<Stored>('ReportRules', guid)!;
      expect(stored.filters).to.deep.include({ name: 'weekly-eu', enabled: 0, severity: [3] });
      expect(stored.intgGuidList).to.have.members([channel, otherChannel]);
      expect(onKeys(stored)).to.deep.equal(['cloudAComplianceEvents']);
      // A block whose flags are all off stays in state as configured.
      expect(state.cloud_c_compliance_reports).to.deep.equal([{ pci: false, cis: false, soc: false, cis_131: false }]);

      const imported = await tf.importState(type, guid);
      expect(imported).to.deep.include({ id: guid, guid, name: 'weekly-eu', enabled: false, weekly_snapshot: null });
      expect((imported.daily_compliance_reports as Plain[])[0]).to.deep.include({
        cloud_a_compliance: true,
        host_security: false,
      });
      await planIsEmpty(type, imported, { ...second, cloud_c_compliance_reports: [] });

      // Reports switched on in the UI show up (upstream never refreshed these blocks).
      emulator.put('ReportRules', guid, {
        ...stored,
        reportNotificationTypes: { ...stored.reportNotificationTypes, cloudBK8s: true, cloudAComplianceEvents: false },
      });
      const drifted = (await tf.read(type, state)).state!;
      expect((drifted.cloud_b_compliance_reports as Plain[])[0]).to.deep.include({ k8s: true, pci: false });
      expect((drifted.daily_compliance_reports as Plain[])[0]).to.deep.include({ cloud_a_compliance: false });
      const repair = await tf.plan(type, drifted, cfg(type, second));
      expect(repair.requiresReplace).to.deep.equal([]);
      state = (await tf.apply(type, drifted, repair, cfg(type, second))).state!;
      expect(onKeys(emulator.get<Stored>('ReportRules', guid)!)).to.deep.equal(['cloudAComplianceEvents']);

      emulator.remove('ReportRules', guid);
      expect((await tf.read(type, state)).state).to.equal(null);
    });

    it('rejects bad severities, an empty channel set and channels the platform does not hold at plan time', async () => {
      const diags = await validationErrors(type, rule({ severities: ['severe'], email_alert_channels: [] }));
      expect(diags.map((d) => d.path).sort()).to.deep.equal(['email_alert_channels', 'severities']);
      const plan = await applyErrors(type, null, rule({ email_alert_channels: ['NOPE_123'] }));
      expect(plan.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Names no existing object', 'email_alert_channels'],
      ]);
      expect(plan[0]!.detail).to.match(
        /^"NOPE_123" is none of the e-mail alert channels the platform holds\. It holds "/,
      );
    });
  });

  describe('sec_resource_group', () => {
    const type = 'sec_resource_group';
    const filter = (filter_name: string, field: string, value: string[], extra: Plain = {}) => ({
      filter_name,
      field,
      operation: 'EQUALS',
      value,
      ...extra,
    });
    const deep = (extra: Plain = {}): Plain => ({
      name: 'prod',
      type: 'CLOUD_A',
      group: [
        {
          operator: 'AND',
          filter: [filter('accounts', 'Account', ['123456789012'])],
          group: [
            {
              operator: 'OR',
              filter: [filter('us', 'Region', ['us-east-1'])],
              group: [
                {
                  operator: 'AND',
                  filter: [filter('team', 'Resource Tag', ['security'], { key: 'team' })],
                  group: [
                    {
                      operator: 'OR',
                      filter: [filter('eu', 'Region', ['eu-west-1']), filter('eu2', 'Region', ['eu-central-1'])],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
      ...extra,
    });

    it('stores a query nested three levels below the top group, filters keyed by name', async () => {
      const state = await converge(type, null, deep());
      const stored = emulator.get<Stored>('ResourceGroups', state.id as string)!;
      expect(stored).to.deep.include({ name: 'prod', resourceType: 'CLOUD_A', enabled: 1, description: '' });
      expect(Object.keys(stored.query.filters).sort()).to.deep.equal(['accounts', 'eu', 'eu2', 'team', 'us']);
      expect(stored.query.filters.team).to.deep.equal({
        field: 'Resource Tag',
        operation: 'EQUALS',
        values: ['security'],
        key: 'team',
      });
      expect(stored.query.filters.us).to.not.have.property('key');
      const e = stored.query.expression;
      expect(e.operator).to.equal('AND');
      expect(e.children[0]).to.deep.equal({ filterName: 'accounts' });
      expect(e.children[1].children[1].children[1]).to.deep.equal({
        operator: 'OR',
        children: [{ filterName: 'eu' }, { filterName: 'eu2' }],
      });
      expect(state).to.deep.include({ enabled: true, is_default: false, description: null });
      expect(state.last_updated).to.match(/^\d{4}-\d{2}-\d{2}T/);
      await destroy(type, state);
      expect(emulator.get('ResourceGroups', state.id as string)).to.equal(undefined);
    });

    it('reports an empty group and a repeated filter name at plan time, at their paths', async () => {
      const config = deep({
        group: [
          {
            operator: 'AND',
            filter: [filter('a', 'Account', ['1'])],
            group: [{ operator: 'OR', filter: [filter('a', 'Region', ['x'])] }, { operator: 'AND' }],
          },
        ],
      });
      const diags = await validationErrors(type, config);
      expect(diags.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Duplicate filter name', 'group[0].group[0].filter[0].filter_name'],
        ['Empty resource group', 'group[0].group[1]'],
      ]);
      const top = await validationErrors(type, deep({ group: [{ operator: 'OR' }] }));
      expect(top.map((d) => d.path)).to.deep.equal(['group[0]']);
    });

    it('validates type, operator and operation at plan time, at their paths', async () => {
      const config = deep();
      const g = (config.group as any[])[0];
      g.group[0].operator = 'XOR';
      g.group[0].group[0].filter[0].operation = 'LIKE';
      const diags = await validationErrors(type, { ...config, type: 'AWS' });
      expect(diags.map((d) => d.path).sort()).to.deep.equal([
        'group[0].group[0].group[0].filter[0].operation',
        'group[0].group[0].operator',
        'type',
      ]);
    });

    it('a type named like a member every object has is refused at `type`, its filters judged by no field list', async () => {
      for (const name of ['constructor', 'toString', '__proto__']) {
        const diags = await validationErrors(type, { ...deep(), type: name });
        expect(
          diags.map((d) => [d.summary, d.path]),
          name,
        ).to.deep.equal([['Invalid value for "type"', 'type']]);
      }
    });

    it('refuses a filter on a field its resource type lacks, and a tag filter without a key, at plan time; an unknown type waits', async () => {
      const config = deep();
      const g = (config.group as any[])[0];
      g.group[0].filter[0].field = 'Hostname';
      g.group[0].group[0].filter[0].key = null;
      const diags = await validationErrors(type, config);
      expect(diags.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Invalid filter field', 'group[0].group[0].filter[0].field'],
        ['Missing filter key', 'group[0].group[0].group[0].filter[0].key'],
      ]);
      expect(diags[0]!.detail).to.equal(
        '"Hostname" is not a field of CLOUD_A resource groups; use one of "Account", "Organization ID", "Region", "Resource Tag".',
      );
      g.group[0].group[0].filter[0].key = 'team';
      await tf.validateResource(type, { ...cfg(type, config), type: UNKNOWN });
    });

    it('allows exactly one top-level group and three nested levels in the schema', () => {
      const top = tf.resourceSchema(type).block.blockTypes.group!;
      expect([top.nesting, top.minItems, top.maxItems]).to.deep.equal(['list', 1, 1]);
      let level = top.block;
      for (let i = 0; i < 3; i++) level = level.blockTypes.group!.block;
      expect(Object.keys(level.blockTypes)).to.deep.equal(['filter']);
    });

    it('updates in place, replaces on a type change, imports, reads drift, survives re-cased filter keys', async () => {
      let state = await converge(type, null, deep({ description: 'first' }));
      const guid = state.id as string;
      const changed = deep({ description: 'second', enabled: false });
      (changed.group as any[])[0].filter[0].value = ['123456789012', '210987654321'];
      state = await converge(type, state, changed);
      expect(state.id).to.equal(guid);
      const stored = emulator.get<Stored>('ResourceGroups', guid)!;
      expect(stored).to.deep.include({ description: 'second', enabled: 0 });
      expect(stored.query.filters.accounts.values).to.deep.equal(['123456789012', '210987654321']);

      const retype = await tf.plan(
        type,
        state,
        cfg(type, {
          ...changed,
          type: 'CLOUD_B',
          group: [{ operator: 'AND', filter: [filter('projects', 'Project ID', ['acme'])] }],
        }),
      );
      expect(retype.requiresReplace).to.deep.equal([[{ attr: 'type' }]]);

      const imported = await tf.importState(type, guid);
      expect(imported).to.deep.include({ id: guid, name: 'prod', description: 'second', enabled: false });
      await planIsEmpty(type, imported, changed);

      // The platform may re-case filter-map keys; the expression's names still win.
      const recased = Object.fromEntries(Object.entries(stored.query.filters).map(([k, v]) => [k.toUpperCase(), v]));
      emulator.put('ResourceGroups', guid, { ...stored, query: { ...stored.query, filters: recased } });
      expect((await tf.read(type, state)).state).to.deep.equal(state);

      emulator.put('ResourceGroups', guid, {
        ...stored,
        query: { ...stored.query, expression: { ...stored.query.expression, operator: 'OR' } },
      });
      const drifted = (await tf.read(type, state)).state!;
      expect((drifted.group as Plain[])[0]!.operator).to.equal('OR');
      state = (await tf.apply(type, drifted, await tf.plan(type, drifted, cfg(type, changed)), cfg(type, changed)))
        .state!;
      expect(emulator.get<Stored>('ResourceGroups', guid)!.query.expression.operator).to.equal('AND');

      emulator.remove('ResourceGroups', guid);
      expect((await tf.read(type, state)).state).to.equal(null);
    });

    it('filters named __proto__, constructor and toString are filters like any other: create, read, import, re-plan', async () => {
      const config = {
        name: 'named-like-object-members',
        type: 'CLOUD_A',
        group: [
          {
            operator: 'AND',
            filter: [filter('__proto__', 'Account', ['123456789012']), filter('constructor', 'Region', ['us-east-1'])],
            group: [{ operator: 'OR', filter: [filter('toString', 'Region', ['eu-west-1'])] }],
          },
        ],
      };
      const state = await converge(type, null, config);
      const guid = state.id as string;
      // What the platform received and keeps (the emulator's store holds JSON data, as the platform does).
      const held = JSON.parse(JSON.stringify(emulator.get<Stored>('ResourceGroups', guid)!.query.filters));
      expect(Object.keys(held).sort()).to.deep.equal(['__proto__', 'constructor', 'toString']);
      expect(Object.getOwnPropertyDescriptor(held, '__proto__')!.value.values).to.deep.equal(['123456789012']);
      expect((await tf.read(type, state)).state).to.deep.equal(state);
      const imported = await tf.importState(type, guid);
      expect(((imported.group as Plain[])[0]!.filter as Plain[]).map((f) => f.filter_name)).to.deep.equal([
        '__proto__',
        'constructor',
      ]);
      await planIsEmpty(type, imported, config);
      await destroy(type, state);
    });

    it('refuses at validation the fields a type does not have, as the platform would', async () => {
      const diags = await validationErrors(type, deep({ type: 'CLOUD_C' }));
      expect(diags.map((d) => d.path)).to.deep.equal(['group[0].filter[0].field']);
      expect(diags[0]!.detail).to.match(/"Account" is not a field of CLOUD_C resource groups/);
    });
  });

  describe('sec_team_member', () => {
    const type = 'sec_team_member';
    const member = (extra: Plain = {}): Plain => ({
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Analytical',
      ...extra,
    });

    it('account member: create, update in place, replace on e-mail change, import by GUID and e-mail, drift, destroy', async () => {
      let state = await converge(type, null, member());
      const guid = state.id as string;
      expect(emulator.get<Stored>('TeamMembers', guid)).to.deep.include({
        userName: 'ada@example.com',
        userEnabled: 1,
        orgLevel: false,
      });
      expect(emulator.get<Stored>('TeamMembers', guid)!.props).to.deep.include({
        firstName: 'Ada',
        company: 'Analytical',
        accountAdmin: false,
      });
      expect(state).to.deep.include({ guid, enabled: true, administrator: false, organization: [] });

      state = await converge(
        type,
        state,
        member({ company: 'Engines Ltd', enabled: false, administrator: true, email: 'ADA@example.com' }),
      );
      expect(state.id).to.equal(guid);
      expect(emulator.get<Stored>('TeamMembers', guid)).to.deep.include({ userEnabled: 0 });
      expect(emulator.get<Stored>('TeamMembers', guid)!.props).to.deep.include({
        company: 'Engines Ltd',
        accountAdmin: true,
      });

      const rename = await tf.plan(
        type,
        state,
        cfg(type, member({ company: 'Engines Ltd', enabled: false, administrator: true, email: 'ada.l@example.com' })),
      );
      expect(rename.requiresReplace).to.deep.equal([[{ attr: 'email' }]]);

      const final = member({ company: 'Engines Ltd', enabled: false, administrator: true });
      for (const id of [guid, 'ada@example.com']) {
        const imported = await tf.importState(type, id);
        expect(imported).to.deep.include({
          id: guid,
          email: 'ada@example.com',
          company: 'Engines Ltd',
          administrator: true,
          enabled: false,
        });
        await planIsEmpty(type, imported, final);
      }
      const missing = await failure(tf.importState(type, 'NOT_A_GUID'));
      expect(missing[0]!.summary).to.equal('Cannot import non-existent remote object');
      expect(missing[0]!.detail).to.match(/sec_team_member is imported by the user GUID, or the e-mail address\.$/);

      // Upstream failed here instead of noticing the deletion.
      emulator.remove('TeamMembers', guid);
      expect((await tf.read(type, state)).state).to.equal(null);
      state = await converge(type, null, final);
      await destroy(type, state);
      expect(emulator.get('TeamMembers', state.id as string)).to.equal(undefined);
    });

    it('validates the e-mail address and conflicting roles at plan time', async () => {
      const diags = await validationErrors(
        type,
        member({ email: 'not-an-email', administrator: true, organization: [{ administrator: true, user: true }] }),
      );
      expect(diags.map((d) => d.path).sort()).to.deep.equal(['administrator', 'email', 'organization[0].user']);
      const lists = await validationErrors(
        type,
        member({ organization: [{ user: true, admin_accounts: ['dev'], user_accounts: ['DEV'] }] }),
      );
      expect(lists.map((d) => d.path).sort()).to.deep.equal([
        'organization[0].admin_accounts',
        'organization[0].user_accounts',
        'organization[0].user_accounts',
      ]);
    });

    it('an organization block needs the provider in organization mode, judged at plan time', async () => {
      const diags = await failure(
        tf.plan(type, null, cfg(type, member({ email: 'org@example.com', organization: [{ user: true }] }))),
      );
      expect(diags[0]).to.deep.include({
        summary: 'Team member does not match the provider mode',
        path: 'organization',
      });
      expect(diags[0]!.detail).to.match(/needs `organization = true`/);
    });

    describe('in organization mode', () => {
      let orgTf: TerraformClient;
      const org = helpers(() => orgTf);
      before(async () => {
        orgTf = await TerraformClient.start(BIN, secProviderEnv(emulator));
        await orgTf.configure({ organization: true });
      });
      after(async () => orgTf?.close());

      it('creates per-account roles, switches to an organization-wide role, disables and renames the company, imports by e-mail', async () => {
        const first = member({
          email: 'grace@example.com',
          first_name: 'Grace',
          organization: [{ admin_accounts: ['dev'], user_accounts: ['Prod'] }],
        });
        let state = await org.converge(type, null, first);
        const guid = state.id as string;
        expect(emulator.get<Stored>('TeamMembers', guid)).to.deep.include({
          orgLevel: true,
          orgAdmin: false,
          orgUser: false,
          adminRoleAccounts: ['DEV'],
          userRoleAccounts: ['PROD'],
        });
        expect((state.organization as Plain[])[0]).to.deep.include({
          admin_accounts: ['dev'],
          user_accounts: ['Prod'],
        });

        // Upstream's organization-mode update dropped `enabled` and `company`.
        const second = member({
          email: 'grace@example.com',
          first_name: 'Grace',
          company: 'Navy',
          enabled: false,
          organization: [{ user: true }],
        });
        state = await org.converge(type, state, second);
        const stored = emulator.get<Stored>('TeamMembers', guid)!;
        expect(stored).to.deep.include({
          orgUser: true,
          orgAdmin: false,
          adminRoleAccounts: [],
          userRoleAccounts: [],
          userEnabled: 0,
        });
        expect(stored.props.company).to.equal('Navy');

        const imported = await orgTf.importState(type, 'grace@example.com');
        expect(imported).to.deep.include({ id: guid, administrator: false, enabled: false, company: 'Navy' });
        expect(imported.organization).to.deep.equal([
          { administrator: false, user: true, admin_accounts: null, user_accounts: null },
        ]);
        await org.planIsEmpty(type, imported, second);

        const roleless = await org.applyErrors(
          type,
          state,
          member({ email: 'grace@example.com', first_name: 'Grace', organization: [{}] }),
        );
        expect(roleless[0]).to.deep.include({ summary: 'Organization member without a role', path: 'organization[0]' });
        await org.destroy(type, state);
        expect(emulator.get('TeamMembers', guid)).to.equal(undefined);
      });

      it('an account-level member is refused at plan time with a pointer to the organization block', async () => {
        const diags = await failure(
          orgTf.plan(type, null, org.cfg(type, member({ email: 'plain@example.com', administrator: true }))),
        );
        expect(diags[0]).to.deep.include({
          summary: 'Team member does not match the provider mode',
          path: 'organization',
        });
        expect(diags[0]!.detail).to.match(/add an `organization` block/);
      });
    });
  });

  describe('sec_vulnerability_exception_container and _host', () => {
    const container = 'sec_vulnerability_exception_container';
    const host = 'sec_vulnerability_exception_host';
    const exception = (extra: Plain = {}): Plain => ({
      name: 'base-image',
      reason: 'accepted risk',
      expiry: '2099-12-31T00:00:00Z',
      vulnerability_criteria: [
        {
          cves: [' CVE-2024-0001'],
          severities: ['high', 'CRITICAL'],
          fixable_vuln: 'TRUE',
          package: [
            { name: 'openssl', version: '3.0.2' },
            { name: 'openssl', version: '3.0.3' },
          ],
        },
      ],
      resource_scope: [{ registries: ['registry.example.com'], image_tags: ['1.0'] }],
      ...extra,
    });

    it('container: the platform spellings on the wire, the configured ones in state, refresh of everything, import with scope', async () => {
      let state = await converge(container, null, exception());
      const guid = state.id as string;
      const stored = emulator.get<Stored>('VulnerabilityExceptions', guid)!;
      expect(stored).to.deep.include({
        exceptionType: 'Container',
        exceptionReason: 'Accepted Risk',
        expiryTime: '2099-12-31T00:00:00.000Z',
        state: 1,
      });
      expect(stored.vulnerabilityCriteria).to.deep.equal({
        cve: ['CVE-2024-0001'],
        severity: ['High', 'Critical'],
        fixable: [1],
        package: [{ openssl: ['3.0.2'] }, { openssl: ['3.0.3'] }],
      });
      expect(stored.resourceScope).to.deep.equal({ imageTag: ['1.0'], registry: ['registry.example.com'] });
      expect(state).to.deep.include({
        guid,
        type: 'Container',
        reason: 'accepted risk',
        expiry: '2099-12-31T00:00:00Z',
        enabled: true,
        description: null,
      });

      // Upstream never filled resource_scope after import.
      const imported = await tf.importState(container, guid);
      expect((imported.resource_scope as Plain[])[0]).to.deep.include({
        registries: ['registry.example.com'],
        image_tags: ['1.0'],
        namespaces: null,
      });
      await planIsEmpty(container, imported, exception());

      const second = exception({
        reason: 'Fix Pending',
        description: 'until the rebuild',
        resource_scope: [],
        enabled: false,
      });
      state = await converge(container, state, second);
      expect(state.id).to.equal(guid);
      const updated = emulator.get<Stored>('VulnerabilityExceptions', guid)!;
      expect(updated).to.deep.include({ exceptionReason: 'Fix Pending', state: 0 });
      expect(updated.props.description).to.equal('until the rebuild');
      expect(updated).to.not.have.property('resourceScope');

      emulator.put('VulnerabilityExceptions', guid, { ...updated, resourceScope: { namespace: ['payments'] } });
      const drifted = (await tf.read(container, state)).state!;
      expect((drifted.resource_scope as Plain[])[0]).to.deep.include({ namespaces: ['payments'], registries: null });

      emulator.remove('VulnerabilityExceptions', guid);
      expect((await tf.read(container, state)).state).to.equal(null);
    });

    it('host: host scope keys, and a host exception cannot be imported as a container one', async () => {
      const state = await converge(host, null, {
        name: 'kernel',
        vulnerability_criteria: [{ cves: ['CVE-2023-1234'] }],
        resource_scope: [{ hostnames: ['db-1'], cluster_names: ['prod'] }],
      });
      const stored = emulator.get<Stored>('VulnerabilityExceptions', state.id as string)!;
      expect(stored).to.deep.include({ exceptionType: 'Host', exceptionReason: 'Unknown' });
      expect(stored).to.not.have.property('expiryTime');
      expect(stored.resourceScope).to.deep.equal({ hostname: ['db-1'], clusterName: ['prod'] });
      expect(state).to.deep.include({ reason: null, expiry: null });
      const wrong = await failure(tf.importState(container, state.id as string));
      expect(wrong[0]!.summary).to.equal('Wrong exception type');
      await destroy(host, state);
      expect(emulator.get('VulnerabilityExceptions', state.id as string)).to.equal(undefined);
    });

    it('takes the reason Unknown, as upstream 2.2.0 does, meaning no reason', async () => {
      const plain = (reason: string | null): Plain => ({
        name: 'unknown-reason',
        reason,
        vulnerability_criteria: [{ cves: ['CVE-2023-1234'] }],
      });
      let state = await converge(host, null, plain('unknown'));
      const guid = state.id as string;
      expect(emulator.get<Stored>('VulnerabilityExceptions', guid)).to.deep.include({ exceptionReason: 'Unknown' });
      expect(state.reason).to.equal('unknown');
      state = await converge(host, state, plain('Other'));
      expect(emulator.get<Stored>('VulnerabilityExceptions', guid)).to.deep.include({ exceptionReason: 'Other' });
      state = await converge(host, state, plain('UNKNOWN'));
      expect(emulator.get<Stored>('VulnerabilityExceptions', guid)).to.deep.include({ exceptionReason: 'Unknown' });
      expect(state.reason).to.equal('UNKNOWN');

      // The platform holds `Unknown` for both: leaving the reason out, or an import (which reads no
      // reason) planned against `Unknown`, changes only the state's form and sends nothing.
      emulator.clearRequests();
      state = await converge(host, state, plain(null));
      expect(state.reason).to.equal(null);
      const imported = await tf.importState(host, guid);
      expect(imported.reason).to.equal(null);
      const config = cfg(host, plain('Unknown'));
      const { state: settled } = await tf.apply(host, imported, await tf.plan(host, imported, config), config);
      expect(settled!.reason).to.equal('Unknown');
      await planIsEmpty(host, settled!, plain('Unknown'));
      expect(emulator.requests.filter((r) => r.method !== 'GET')).to.deep.equal([]);
      await destroy(host, settled!);
    });

    it('validates reason (on the container resource too), severities and expiry format at plan time', async () => {
      const config = exception({ reason: 'because', expiry: 'next year' });
      (config.vulnerability_criteria as any[])[0].severities = ['urgent'];
      (config.vulnerability_criteria as any[])[0].fixable_vuln = 'maybe';
      const diags = await validationErrors(container, config);
      expect(diags.map((d) => d.path).sort()).to.deep.equal([
        'expiry',
        'reason',
        'vulnerability_criteria[0].fixable_vuln',
        'vulnerability_criteria[0].severities',
      ]);
    });

    it('refuses empty criteria at validation, at the criteria block, and a past or impossible expiry at its path, before the API', async () => {
      const empty = await validationErrors(host, { name: 'nothing', vulnerability_criteria: [{}] });
      expect(empty[0]).to.deep.include({ summary: 'No vulnerability criteria', path: 'vulnerability_criteria[0]' });
      const before = emulator.requests.length;
      for (const expiry of [
        '2001-01-01T00:00:00Z',
        '2099-13-01T00:00:00Z',
        '2099-02-30T00:00:00Z',
        '2099-01-01T24:00:00Z',
        '2099-01-01T23:59:60Z',
        '2099-01-01T00:00:00+24:00',
      ]) {
        const [d] = await validationErrors(container, exception({ expiry }));
        expect(d, expiry).to.deep.include({ summary: 'Invalid value for "expiry"', path: 'expiry' });
        expect(d!.detail, expiry).to.match(
          expiry.startsWith('2001') ? /must be in the future/ : /must be an RFC 3339 timestamp with a real date/,
        );
      }
      expect(emulator.requests.length, 'nothing was sent').to.equal(before);
    });
  });

  describe('data source sec_agent_access_token', () => {
    const type = 'sec_agent_access_token';
    it('finds a token by name and says so when there is none', async () => {
      const token = await converge(type, null, { name: 'ds-fleet' });
      const block = tf.dataSourceSchema(type).block;
      const found = await tf.readData(type, configValue(block, { name: 'ds-fleet' }));
      expect(found).to.deep.equal({ id: 'ds-fleet', name: 'ds-fleet', token: token.token });
      expect(tf.dataSourceSchema(type).block.attributes.token!.sensitive).to.equal(true);
      const diags = await failure(tf.readData(type, configValue(block, { name: 'no-such-token' })));
      expect(diags[0]).to.deep.include({ summary: 'Agent access token not found', path: 'name' });
    });
  });
});

describe('Pulumi mapping: governance nested types against the sec seed', () => {
  it('matches every nested type of report rules, resource groups, team members and vulnerability exceptions', async () => {
    const seed = parseSeed(readFixture('secSeed'));
    const built = buildPulumiSchemaWithReport(await describeProvider('sec'));
    expect(built.warnings).to.deep.equal([]);
    const subjects = Object.keys(seed.types).filter((n) =>
      /^(ReportRule|ResourceGroup|TeamMember|VulnerabilityException)/.test(n),
    );
    expect(subjects).to.have.length(17);
    for (const s of subjects) expect(built.schema.types, s).to.have.property(`sec:index/${s}:${s}`);
    const diffs = compareWithSeed(built.schema, seed, {
      only: subjects,
      allowedDifferences: [
        {
          what: 'ReportRuleDailyComplianceReports.cloudCCompliance: has default false, the seed states none',
          reason: 'docs/decisions.md, "Report defaults": defaults to false like its siblings',
        },
      ],
      reportUnusedAllowances: true,
    });
    expect(diffs, diffs.join('\n')).to.deep.equal([]);
  });
});
