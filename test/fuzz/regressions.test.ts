/**
 * The inputs the fuzz tests found that ended in "Internal provider error … a bug in the provider"
 * (an exception inside resource or engine code) instead of a clear diagnostic, one case each.
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { UNKNOWN, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import type { RpcName } from '../../packages/framework/src/server/proto.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { classifyResponse, inProcessProvider, type InProcessProvider } from './answers.js';

type Msg = Record<string, any>;

const sec = inProcessProvider(secDef);
const vdb = inProcessProvider(vdbDef);
const blockOf = (def: ProviderDef<any, any>, type: string) =>
  def.resources.find((r) => r.typeName === type)!.schema.block;
const dyn = (def: ProviderDef<any, any>, type: string, v: Value) => ({
  msgpack: encodeMsgpack(impliedType(blockOf(def, type)), v),
});

/** The answer's error diagnostics as "summary: detail"; fails on an internal error. */
async function errorsOf(provider: InProcessProvider, rpc: RpcName, request: Msg): Promise<string[]> {
  const res = await provider.call(rpc, request);
  const errors = (res.diagnostics as Msg[]).filter((d) => d.severity === 1).map((d) => `${d.summary}: ${d.detail}`);
  expect(classifyResponse(rpc, res), errors.join('\n')).to.not.equal('internal');
  return errors;
}

describe('inputs the fuzz tests found (each once an internal error)', () => {
  it('UpgradeResourceState with a negative schema version', async () => {
    const errors = await errorsOf(sec, 'UpgradeResourceState', {
      type_name: 'sec_resource_group',
      version: -1,
      raw_state: { json: Buffer.from('{}') },
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: The stored state has schema version -1, which is not a valid version.',
    ]);
  });

  it('UpgradeResourceState with raw state that is not JSON', async () => {
    const errors = await errorsOf(sec, 'UpgradeResourceState', {
      type_name: 'sec_resource_group',
      version: 0,
      raw_state: { json: Buffer.from('{"name":') },
    });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.match(
      /^Cannot read the stored state: The state stored for sec_resource_group is not valid: invalid JSON at offset 8/,
    );
  });

  it('ValidateResourceConfig with an unknown element in a set (a reference not known yet)', async () => {
    const config = configValue(blockOf(secDef, 'sec_team_member'), {
      email: 'a@example.com',
      first_name: 'A',
      last_name: 'B',
      company: 'C',
      organization: [{ admin_accounts: ['main'] }],
    });
    (config.organization as ObjectValue[])[0]!.admin_accounts = [UNKNOWN, 'main'];
    expect(
      await errorsOf(sec, 'ValidateResourceConfig', {
        type_name: 'sec_team_member',
        config: dyn(secDef, 'sec_team_member', config),
      }),
    ).to.deep.equal([]);
  });

  it('ValidateResourceConfig with a null element in a list: an error at the attribute', async () => {
    const config = configValue(blockOf(secDef, 'sec_alert_channel_email'), {
      name: 'ops',
      recipients: ['ops@example.com'],
    });
    config.recipients = ['ops@example.com', null];
    const res = await sec.call('ValidateResourceConfig', {
      type_name: 'sec_alert_channel_email',
      config: dyn(secDef, 'sec_alert_channel_email', config),
    });
    expect(classifyResponse('ValidateResourceConfig', res)).to.equal('error');
    expect(res.diagnostics).to.have.length(1);
    expect(res.diagnostics[0]).to.deep.include({ summary: 'Invalid value for "recipients"' });
    expect(res.diagnostics[0].detail).to.include('must not contain null elements');
    expect(res.diagnostics[0].attribute.steps).to.deep.equal([
      { attribute_name: 'recipients', selector: 'attribute_name' },
    ]);
  });

  it('ApplyResourceChange with both prior and planned state null', async () => {
    const errors = await errorsOf(sec, 'ApplyResourceChange', {
      type_name: 'sec_agent_access_token',
      prior_state: dyn(secDef, 'sec_agent_access_token', null),
      planned_state: dyn(secDef, 'sec_agent_access_token', null),
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: Both the prior and the planned state are null: there is nothing to create, update or delete.',
    ]);
  });

  it('ApplyResourceChange asking to update a type that can only be replaced', async () => {
    const state = configValue(blockOf(vdbDef, 'vdb_accounts_auth_key'), { id: 'k1', cluster_ids: ['c1'] });
    const planned = { ...state, cluster_ids: ['c2'] };
    const errors = await errorsOf(vdb, 'ApplyResourceChange', {
      type_name: 'vdb_accounts_auth_key',
      prior_state: dyn(vdbDef, 'vdb_accounts_auth_key', state),
      planned_state: dyn(vdbDef, 'vdb_accounts_auth_key', planned),
    });
    expect(errors).to.deep.equal([
      'Cannot update in place: vdb_accounts_auth_key cannot be updated in place; a change to it must replace it, as its plan says.',
    ]);
  });

  it('ApplyResourceChange whose planned update names another object: refused before the API', async () => {
    const state = configValue(blockOf(vdbDef, 'vdb_accounts_auth_key'), { id: 'k1', cluster_ids: ['c1'] });
    const planned = { ...state, id: 'k2' };
    const errors = await errorsOf(vdb, 'ApplyResourceChange', {
      type_name: 'vdb_accounts_auth_key',
      prior_state: dyn(vdbDef, 'vdb_accounts_auth_key', state),
      planned_state: dyn(vdbDef, 'vdb_accounts_auth_key', planned),
    });
    expect(errors).to.deep.equal([
      'Invalid planned state: The planned update of this vdb_accounts_auth_key changes `id`, which name the object: its identity would go from { id = "k1" } to { id = "k2" }. A change of what names an object replaces it; this plan was not made by this provider.',
    ]);
  });

  it('ApplyResourceChange with a planned state lacking a required block', async () => {
    const planned = configValue(blockOf(vdbDef, 'vdb_accounts_cluster'), { name: 'c' });
    planned.configuration = null;
    const errors = await errorsOf(vdb, 'ApplyResourceChange', {
      type_name: 'vdb_accounts_cluster',
      prior_state: dyn(vdbDef, 'vdb_accounts_cluster', null),
      planned_state: dyn(vdbDef, 'vdb_accounts_cluster', planned),
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: The planned state sent by Terraform is malformed at configuration: at least 1 configuration block(s) are required (0 given).',
    ]);
  });

  it('ApplyResourceChange creating with a required value missing from the plan: the lost-answer key is still described', async () => {
    // Terraform never plans a required attribute null; a hostile client may. The create's key (which
    // orders creates of one key and names the object in messages) must not fail on it.
    const planned = configValue(blockOf(vdbDef, 'vdb_accounts_auth_key'), {});
    const errors = await errorsOf(vdb, 'ApplyResourceChange', {
      type_name: 'vdb_accounts_auth_key',
      prior_state: dyn(vdbDef, 'vdb_accounts_auth_key', null),
      planned_state: dyn(vdbDef, 'vdb_accounts_auth_key', planned),
    });
    expect(errors).to.have.length(1);
  });

  it('a prior state with a null element in a collection', async () => {
    const block = blockOf(secDef, 'sec_alert_channel_email');
    const prior = configValue(block, { id: 'x', name: 'ops', recipients: ['ops@example.com'] });
    prior.recipients = [null];
    const errors = await errorsOf(sec, 'ReadResource', {
      type_name: 'sec_alert_channel_email',
      current_state: dyn(secDef, 'sec_alert_channel_email', prior),
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: The current state sent by Terraform is malformed at recipients: a collection holds a null element.',
    ]);
  });

  it('a stored state holding an unknown value, at top level and in a nested block', async () => {
    const state = configValue(blockOf(secDef, 'sec_external_id'), {
      id: 'x',
      csp: 'cloud_a',
      account_id: '123456789012',
    });
    state.id = UNKNOWN;
    const errors = await errorsOf(sec, 'ReadResource', {
      type_name: 'sec_external_id',
      current_state: dyn(secDef, 'sec_external_id', state),
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: The current state sent by Terraform is malformed at id: the value is unknown, which a stored state never is.',
    ]);
    const cluster = configValue(blockOf(vdbDef, 'vdb_accounts_cluster'), {
      id: 'c1',
      name: 'c',
      configuration: [{ number_of_nodes: 1 }],
    });
    (cluster.configuration as ObjectValue[])[0]!.version = UNKNOWN;
    const planErrors = await errorsOf(vdb, 'PlanResourceChange', {
      type_name: 'vdb_accounts_cluster',
      prior_state: dyn(vdbDef, 'vdb_accounts_cluster', cluster),
      proposed_new_state: dyn(vdbDef, 'vdb_accounts_cluster', null),
      config: dyn(vdbDef, 'vdb_accounts_cluster', null),
    });
    expect(planErrors).to.deep.equal([
      'Invalid request from Terraform: The prior state sent by Terraform is malformed at configuration[0].version: the value is unknown, which a stored state never is.',
    ]);
  });

  it('PlanResourceChange whose proposal drops a configured unknown: planned as configured', async () => {
    const type = 'sec_integration_inline_scanner';
    const prior = configValue(blockOf(secDef, type), {
      id: 'scanner-1',
      name: 'scanner',
      enabled: true,
      limit_num_scan: 60,
    });
    const config = configValue(blockOf(secDef, type), { name: 'scanner' });
    config.limit_num_scan = UNKNOWN;
    const proposed = { ...prior, limit_num_scan: null };
    const res = await sec.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(secDef, type, prior),
      proposed_new_state: dyn(secDef, type, proposed),
      config: dyn(secDef, type, config),
    });
    expect(classifyResponse('PlanResourceChange', res), JSON.stringify(res.diagnostics)).to.equal('success');
    const planned = decodeMsgpack(impliedType(blockOf(secDef, type)), res.planned_state.msgpack) as ObjectValue;
    expect(planned.limit_num_scan).to.equal(UNKNOWN);
    expect(planned.id).to.equal('scanner-1');
  });

  it('PlanResourceChange without a configuration, proposing another SDK-style id: the id stays the prior one', async () => {
    // Without a configuration the proposal stands in for it; an id the platform assigns is not the user's to change.
    const type = 'sec_alert_channel_email';
    const prior = configValue(blockOf(secDef, type), { id: 'channel-1', name: 'ops', recipients: ['ops@example.com'] });
    const proposed = { ...prior, id: ' ' };
    const res = await sec.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(secDef, type, prior),
      proposed_new_state: dyn(secDef, type, proposed),
    });
    expect(classifyResponse('PlanResourceChange', res), JSON.stringify(res.diagnostics)).to.equal('success');
    const planned = decodeMsgpack(impliedType(blockOf(secDef, type)), res.planned_state.msgpack) as ObjectValue;
    expect(planned.id).to.equal('channel-1');
    expect(res.requires_replace).to.deep.equal([]);
  });

  it('PlanResourceChange whose configuration and proposal set a computed-only id: the id stays the prior one', async () => {
    const type = 'vdb_accounts_auth_key';
    const prior = configValue(blockOf(vdbDef, type), { id: 'key-1', cluster_ids: ['c1'] });
    const other = { ...prior, id: '{"a":1}' };
    const res = await vdb.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(vdbDef, type, prior),
      proposed_new_state: dyn(vdbDef, type, other),
      config: dyn(vdbDef, type, other),
    });
    expect(classifyResponse('PlanResourceChange', res), JSON.stringify(res.diagnostics)).to.equal('success');
    const planned = decodeMsgpack(impliedType(blockOf(vdbDef, type)), res.planned_state.msgpack) as ObjectValue;
    expect(planned.id).to.equal('key-1');
  });

  it('a megabyte type name is not echoed back whole', async () => {
    const errors = await errorsOf(sec, 'ValidateResourceConfig', { type_name: 'x'.repeat(1_000_000) });
    expect(errors).to.deep.equal([
      `Invalid request from Terraform: The provider sec has no resource type "${'x'.repeat(100)}…".`,
    ]);
  });

  it('a null element in a nested block list', async () => {
    const block = blockOf(vdbDef, 'vdb_accounts_cluster');
    const config = configValue(block, { name: 'c' });
    config.configuration = [null];
    const errors = await errorsOf(vdb, 'ValidateResourceConfig', {
      type_name: 'vdb_accounts_cluster',
      config: dyn(vdbDef, 'vdb_accounts_cluster', config),
    });
    expect(errors).to.deep.equal([
      'Invalid request from Terraform: The resource configuration sent by Terraform is malformed at configuration[0]: a configuration block element is null.',
    ]);
  });
});
