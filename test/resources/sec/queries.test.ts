/**
 * Queries (sec_query) through the real provider executable and the Terraform-side client, against the
 * in-process emulator: create, empty re-plan, in-place update of the text, replacement on a new id,
 * import, drift, destroy; the emulator's compiler refusing malformed text with line and column; a
 * policy evaluating the query, which the platform then refuses to delete.
 */
import { expect } from 'chai';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { compileQuery, QueryCompileError } from '../../../src/emulators/sec/query-language.js';
import { missingAtPlanRefusedAtApply } from '../../support/missing-objects.js';
import { type TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';

const TRAIL = `{
  source { CloudATrailRawEvents }
  filter { EVENT_SOURCE = 'database.cloud-a.example' and ERROR_CODE is null }
  return distinct { INSERT_ID, INSERT_TIME, EVENT_TIME, EVENT }
}`;
const BUCKETS = `TF_Buckets {
  source { SEC_CFG_CLOUD_A_BUCKETS b }
  filter { b.RESOURCE_CONFIG:Acl.Grants.Grantee.URI = 'all-users' }
  return { b.ACCOUNT_ID, b.RESOURCE_KEY as BUCKET, RESOURCE_CONFIG:Acl.Owner }
}`;

/** Upstream's documented query (2.2.0 docs of its query resource), in neutral names. */
const UPSTREAM_INSTANCES_QUERY = `{
      source {
          SEC_CFG_CLOUD_A_INSTANCES
      }
      filter {
          value_exists(RESOURCE_CONFIG:PublicIpAddress)
      }
      return distinct {
          ACCOUNT_ALIAS,
          ACCOUNT_ID,
          ARN as RESOURCE_KEY,
          RESOURCE_REGION,
          RESOURCE_TYPE,
          SERVICE,
          case when RESOURCE_TYPE = 'instance' then 'HasPublicIp'
          end as COMPLIANCE_FAILURE_REASON
      }
  }
`;
/** Upstream's documented compliance query (2.2.0 docs of its compliance policy), in neutral names. */
const UPSTREAM_TRAIL_CONFIG_QUERY = `{
    source {
      SEC_CFG_CLOUD_A_TRAIL
    }
    filter {
      RESOURCE_CONFIG:LogFileValidationEnabled = 'false'
    }
    return distinct {
      ACCOUNT_ALIAS,
      ACCOUNT_ID,
      ARN as RESOURCE_KEY,
      RESOURCE_REGION,
      RESOURCE_TYPE,
      SERVICE,
      'TrailLogFileValidationNotEnabled' as COMPLIANCE_FAILURE_REASON
    }
  }
`;
const CONFIG_COLUMNS = [
  ...['ACCOUNT_ALIAS', 'ACCOUNT_ID', 'RESOURCE_KEY', 'RESOURCE_REGION', 'RESOURCE_TYPE', 'SERVICE'],
  'COMPLIANCE_FAILURE_REASON',
].map((name) => ({ name, dataType: 'String' }));

describe("sec_query: the emulator's compiler of the query language", () => {
  it('accepts the three sections and describes the result', () => {
    expect(compileQuery(TRAIL, 'Q')).to.deep.equal({
      sources: ['CloudATrailRawEvents'],
      evaluator: 'CloudATrail',
      resultSchema: [
        { name: 'INSERT_ID', dataType: 'Number' },
        { name: 'INSERT_TIME', dataType: 'Timestamp' },
        { name: 'EVENT_TIME', dataType: 'Timestamp' },
        { name: 'EVENT', dataType: 'JSON' },
      ],
    });
    expect(compileQuery(BUCKETS, 'TF_Buckets')).to.deep.equal({
      sources: ['SEC_CFG_CLOUD_A_BUCKETS'],
      evaluator: '',
      resultSchema: [
        { name: 'ACCOUNT_ID', dataType: 'String' },
        { name: 'BUCKET', dataType: 'String' },
        { name: 'Owner', dataType: 'JSON' },
      ],
    });
  });

  // Shapes the platform takes at upstream 2.2.0, in neutral names: the SDK's (v2.10.0) integration
  // tests query without a filter, its host-policy test reads host files; upstream's docs return
  // named expressions and read the trail configuration and instances by their resource names (ARN).
  const column = (name: string, dataType = 'String') => ({ name, dataType });
  const hostFiles = 'CLI_Host_Files_IntegrationTest {\n  source {\n    SEC_HE_FILES\n  }\n  return {\n    PATH\n  }\n}';
  const groups = '{ source { SEC_CFG_CLOUD_A_SECURITY_GROUPS g } return { g.ARN, 445 as PORT } }';
  const upstreamShapes: [string, string, string, unknown][] = [
    [
      "a query without a filter (the SDK's tests)",
      'Q',
      '{ source { CloudATrailRawEvents } return { INSERT_ID } }',
      { sources: ['CloudATrailRawEvents'], evaluator: 'CloudATrail', resultSchema: [column('INSERT_ID', 'Number')] },
    ],
    [
      "host files, named in the older syntax (the SDK's host-policy test)",
      'CLI_Host_Files_IntegrationTest',
      hostFiles,
      { sources: ['SEC_HE_FILES'], evaluator: '', resultSchema: [column('PATH')] },
    ],
    [
      "a case expression named with as (upstream's query docs)",
      'Q',
      UPSTREAM_INSTANCES_QUERY,
      { sources: ['SEC_CFG_CLOUD_A_INSTANCES'], evaluator: '', resultSchema: CONFIG_COLUMNS },
    ],
    [
      "a text named with as, on the trail configuration (upstream's compliance-policy docs)",
      'Q',
      UPSTREAM_TRAIL_CONFIG_QUERY,
      { sources: ['SEC_CFG_CLOUD_A_TRAIL'], evaluator: '', resultSchema: CONFIG_COLUMNS },
    ],
    [
      'a number named with as, on security groups',
      'Q',
      groups,
      {
        sources: ['SEC_CFG_CLOUD_A_SECURITY_GROUPS'],
        evaluator: '',
        resultSchema: [column('ARN'), column('PORT', 'Number')],
      },
    ],
  ];
  for (const [what, id, text, compiled] of upstreamShapes) {
    it(`accepts ${what}`, () => {
      expect(compileQuery(text, id)).to.deep.equal(compiled);
    });
  }

  const refusals: [string, string, RegExp][] = [
    ['no source', '{ filter { A = 1 } return { EVENT } }', /line 1, column 3: expected "source", found "filter"/],
    ['no return', '{ source { CloudATrailRawEvents } filter { A = 1 } }', /expected "return", found "}"/],
    ['neither filter nor return', '{ source { CloudATrailRawEvents } }', /expected "filter" or "return", found "}"/],
    [
      'an unnamed expression',
      "{ source { CloudATrailRawEvents } return { 'x' } }",
      /column 44: an expression in the return list needs a name: <expression> as <NAME>/,
    ],
    [
      'an unknown field in an expression',
      "{ source { CloudATrailRawEvents } return { case when NOPE = 1 then 'a' end as X } }",
      /column 54: "NOPE" is not a field of CloudATrailRawEvents/,
    ],
    [
      'an unknown alias in an expression',
      "{ source { CloudATrailRawEvents t } return { case when u.EVENT_NAME = 'a' then 1 end as X } }",
      /column 56: unknown data source alias "u"/,
    ],
    ['empty filter', '{ source { CloudATrailRawEvents } filter { } return { EVENT } }', /the filter is empty/],
    [
      'empty return',
      '{ source { CloudATrailRawEvents } filter { A = 1 } return { } }',
      /expected a field to return, found "}"/,
    ],
    ['unknown source', '{ source { Nope } filter { A = 1 } return { X } }', /unknown data source "Nope"/],
    [
      'unknown field',
      '{\n source { CloudATrailRawEvents }\n filter { A = 1 }\n return { EVENT, NOPE }\n}',
      /line 4, column 18: "NOPE" is not a field of CloudATrailRawEvents/,
    ],
    [
      'unterminated string',
      "{ source { CloudATrailRawEvents } filter { A = 'x } return { EVENT } }",
      /unterminated string literal/,
    ],
    [
      'unbalanced parenthesis',
      '{ source { CloudATrailRawEvents } filter { (A = 1 } return { EVENT } }',
      /"}" does not close "\("/,
    ],
    [
      'trailing text',
      '{ source { CloudATrailRawEvents } filter { A = 1 } return { EVENT } } extra',
      /unexpected "extra" after the end of the query/,
    ],
    [
      'wrong own id',
      'Other { source { CloudATrailRawEvents } filter { A = 1 } return { EVENT } }',
      /names itself "Other" but its id is "Q"/,
    ],
    [
      'mixed evaluators',
      '{ source { CloudATrailRawEvents, SEC_CFG_CLOUD_A_BUCKETS } filter { A = 1 } return { EVENT } }',
      /need different evaluators/,
    ],
    [
      'duplicate column',
      '{ source { CloudATrailRawEvents } filter { A = 1 } return { EVENT, EVENT } }',
      /two columns named "EVENT"/,
    ],
  ];
  for (const [what, text, message] of refusals) {
    it(`refuses ${what}`, () => {
      expect(() => compileQuery(text, 'Q')).to.throw(QueryCompileError, message);
    });
  }
});

describe('sec_query through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;

  before(async () => {
    sec = await startSecProvider({ account: 'acme' });
    ({ emulator, tf } = sec);
  });
  after(() => sec?.close());

  const type = 'sec_query';
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
  async function planError(plain: Record<string, unknown>): Promise<ProviderCallError> {
    const err = await tf.plan(type, null, cfg(type, plain)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the plan must fail').to.be.instanceOf(ProviderCallError);
    return err as ProviderCallError;
  }

  it('creates, updates the text in place, imports, shows drift and deletes', async () => {
    let state = await converge(type, null, { query_id: 'TF_Trail', query: TRAIL });
    expect(state).to.deep.include({
      id: 'TF_Trail',
      query_id: 'TF_Trail',
      evaluator_id: 'CloudATrail',
      owner: 'api-user@acme.example',
    });
    expect(JSON.parse(state.result_schema as string)).to.have.length(4);
    expect(emulator.get('Queries', 'TF_Trail')).to.deep.include({ queryText: TRAIL, evaluatorId: 'CloudATrail' });

    const changed = TRAIL.replace('INSERT_ID, ', '');
    const plan = await tf.plan(type, state, cfg(type, { query_id: 'TF_Trail', query: changed }));
    expect(plan.requiresReplace).to.deep.equal([]);
    emulator.clearRequests();
    state = await converge(type, state, { query_id: 'TF_Trail', query: changed });
    const patch = emulator.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).to.equal('/api/v2/Queries/TF_Trail');
    expect(patch?.body).to.deep.equal({ queryText: changed });
    expect(JSON.parse(state.result_schema as string)).to.have.length(3);

    const imported = await tf.importState(type, 'TF_Trail');
    expect(imported).to.deep.include({
      id: 'TF_Trail',
      query_id: 'TF_Trail',
      query: changed,
      evaluator_id: 'CloudATrail',
    });
    const replan = await tf.plan(type, imported, cfg(type, { query_id: 'TF_Trail', query: changed }));
    expect(valueEquals(impliedType(tf.resourceSchema(type).block), replan.planned, imported)).to.equal(true);

    emulator.put('Queries', 'TF_Trail', { ...emulator.get('Queries', 'TF_Trail')!, queryText: TRAIL });
    expect((await tf.read(type, state)).state!.query).to.equal(TRAIL);

    await destroy(type, state);
    expect(emulator.get('Queries', 'TF_Trail')).to.equal(undefined);
    expect((await tf.read(type, state)).state).to.equal(null);
  });

  it('takes what the platform takes: no filter, named expressions, trail configuration, built-in id form', async () => {
    const noFilter = '{ source { CloudATrailRawEvents } return { INSERT_ID } }';
    const bare = await converge(type, null, { query_id: 'TF_No_Filter', query: noFilter });
    expect(emulator.get('Queries', 'TF_No_Filter')).to.deep.include({ queryText: noFilter });
    expect(bare.evaluator_id).to.equal('CloudATrail');
    expect(emulator.get('Queries', 'TF_No_Filter')).to.deep.include({ evaluatorId: 'CloudATrail' });

    const instancesId = 'TF_CloudA_Config_InstanceWithPublicAddress';
    const instances = await converge(type, null, { query_id: instancesId, query: UPSTREAM_INSTANCES_QUERY });
    expect(JSON.parse(instances.result_schema as string)).to.deep.equal(CONFIG_COLUMNS);

    // Upstream's compliance-policy docs: the account's own query with an id of the platform's form (the
    // docs reuse the id of the built-in query of policy 75, which exists already), and its policy.
    const ownId = 'SEC_Global_CloudA_Config_OwnTrailLogFileValidation';
    let trail = await converge(type, null, { query_id: ownId, query: UPSTREAM_TRAIL_CONFIG_QUERY });
    expect(emulator.get('Queries', ownId)).to.deep.include({ owner: 'api-user@acme.example', evaluatorId: '' });
    const compliance = {
      query_id: ownId,
      title: 'Ensure trail log file validation is enabled',
      enabled: false,
      severity: 'High',
      description: 'Trail log file validation creates a digitally signed digest file.',
      remediation: 'Enable log file validation on the trail.',
      tags: ['security:compliance'],
      alerting_enabled: false,
    };
    const policy = await converge('sec_policy_compliance', null, compliance);
    const stored = emulator.get('Policies', policy.id as string);
    expect(stored).to.deep.include({ policyType: 'Compliance', queryId: ownId, enabled: false });
    const changed = UPSTREAM_TRAIL_CONFIG_QUERY.replace("'false'", "'False'");
    trail = await converge(type, trail, { query_id: ownId, query: changed });
    expect(emulator.get('Queries', ownId)).to.deep.include({ queryText: changed });

    await destroy('sec_policy_compliance', policy);
    for (const state of [trail, instances, bare]) await destroy(type, state);
    for (const id of [ownId, instancesId, 'TF_No_Filter']) expect(emulator.get('Queries', id), id).to.equal(undefined);
  });

  it('replaces the query when its id or evaluator changes', async () => {
    const state = await converge(type, null, { query_id: 'TF_Buckets', query: BUCKETS });
    expect(state.evaluator_id).to.equal(null);
    const renamed = await tf.plan(
      type,
      state,
      cfg(type, { query_id: 'TF_Buckets_2', query: BUCKETS.replace('TF_Buckets', 'TF_Buckets_2') }),
    );
    expect(renamed.requiresReplace).to.deep.equal([[{ attr: 'query_id' }]]);
    await destroy(type, state);
  });

  it("refuses malformed text at plan with the platform compiler's message, and an evaluator the sources do not need", async () => {
    // The shape is right (validation accepts it); the platform's compiler, asked at plan, finds the unknown field.
    const bad = await planError({
      query_id: 'TF_Bad',
      query: '{ source { CloudATrailRawEvents } filter { A = 1 } return { EVENT, NOPE } }',
    });
    expect(bad.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([['Invalid query', 'query']]);
    expect(bad.diagnostics[0]!.detail).to.match(
      /^The platform refuses the query: Query compilation failed at line 1, column 68: "NOPE" is not a field of CloudATrailRawEvents/,
    );
    const evaluator = await planError({
      query_id: 'TF_Bad',
      query: BUCKETS.replace('TF_Buckets ', ''),
      evaluator_id: 'CloudATrail',
    });
    expect(evaluator.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([['Invalid query', 'evaluator_id']]);
    expect(evaluator.diagnostics[0]!.detail).to.match(/evaluated without an evaluator/);
    expect(emulator.get('Queries', 'TF_Bad')).to.equal(undefined);
  });

  it('checks the shape of the text at plan time, naming the attribute; the platform judges the rest', async () => {
    for (const [text, detail] of [
      ['{ source { CloudATrailRawEvents } filter { A = 1 } }', /has no return section after the source section/],
      [
        '{ source { CloudATrailRawEvents } return { EVENT } filter { A = 1 } }',
        /has its filter section after the return section/,
      ],
      ['{ filter { A = 1 } return { EVENT } }', /has no source section/],
      ['{ source { CloudATrailRawEvents } filter { A = 1 } return { EVENT }', /has 1 "\{" not closed/],
      ["{ source { X } filter { A = '} } return { EVENT } }", /unterminated quoted text/],
    ] as const) {
      const err = await tf.validateResource(type, cfg(type, { query_id: 'Q', query: text })).then(
        () => null,
        (e: unknown) => e as ProviderCallError,
      );
      expect(
        err?.diagnostics.map((d) => [d.path, d.summary]),
        text,
      ).to.deep.equal([['query', 'Invalid value for "query"']]);
      expect(err!.diagnostics[0]!.detail).to.match(detail);
    }
  });

  it('refuses text that names another query than query_id (the older syntax) at plan time, and takes the same name', async () => {
    const before = emulator.requests.length;
    const err = await tf.validateResource(type, cfg(type, { query_id: 'Q_One', query: `Q_Other ${TRAIL}` })).then(
      () => null,
      (e: unknown) => e as ProviderCallError,
    );
    expect(err!.diagnostics.map((d) => [d.path, d.summary])).to.deep.equal([['query', 'Query id mismatch']]);
    expect(err!.diagnostics[0]!.detail).to.include('names the query `Q_Other`').and.include('`query_id` is `Q_One`');
    await tf.validateResource(type, cfg(type, { query_id: 'Q_One', query: `Q_One ${TRAIL}` }));
    expect(emulator.requests.length).to.equal(before);
  });

  it('validates the id and evaluator at plan time, naming the attribute', async () => {
    const err = await tf
      .validateResource(type, cfg(type, { query_id: '9lives', query: TRAIL, evaluator_id: 'Trail' }))
      .then(
        () => null,
        (e: unknown) => e as ProviderCallError,
      );
    expect(err!.diagnostics.map((d) => [d.path, d.summary])).to.deep.equal([
      ['query_id', 'Invalid value for "query_id"'],
      ['evaluator_id', 'Invalid value for "evaluator_id"'],
    ]);
  });

  it('is what a policy evaluates; the platform keeps a query a policy uses', async () => {
    const query = await converge(type, null, { query_id: 'TF_For_Policy', query: TRAIL });
    const policy = await converge('sec_policy', null, {
      title: 'DB password changed',
      query_id: query.id,
      description: 'd',
      remediation: 'r',
      severity: 'High',
      type: 'Violation',
      policy_id_suffix: 'dbpw',
    });
    expect(emulator.get('Policies', 'acme-dbpw')).to.deep.include({ queryId: 'TF_For_Policy' });
    const refused = await tf.apply(type, query, await tf.plan(type, query, null), null).then(
      () => null,
      (e: unknown) => e as ProviderCallError,
    );
    expect(refused?.message).to.match(/query "TF_For_Policy" is used by policy acme-dbpw/);
    await destroy('sec_policy', policy);
    await destroy(type, query);
    expect(emulator.get('Queries', 'TF_For_Policy')).to.equal(undefined);
  });

  it('is what a compliance policy assesses: create, update, import, no alert profile needed; a violation policy is not one', async () => {
    const t = 'sec_policy_compliance';
    const query = await converge(type, null, {
      query_id: 'TF_For_Compliance',
      query: BUCKETS.replace('TF_Buckets ', ''),
    });
    const base = {
      title: 'Public buckets',
      query_id: query.id,
      description: 'd',
      remediation: 'r',
      severity: 'High',
      policy_id_suffix: 'pubbuckets',
    };
    let policy = await converge(t, null, base);
    expect(policy).to.deep.include({
      id: 'acme-pubbuckets',
      enabled: true,
      alerting_enabled: true,
      tags: null,
      computed_tags: '',
    });
    expect(emulator.get('Policies', 'acme-pubbuckets')).to.deep.include({
      policyType: 'Compliance',
      alertEnabled: true,
      alertProfile: '',
      evalFrequency: 'Daily',
    });
    policy = await converge(t, policy, { ...base, alerting_enabled: false, tags: ['domain:storage'], severity: 'low' });
    expect(emulator.get('Policies', 'acme-pubbuckets')).to.deep.include({
      alertEnabled: false,
      severity: 'low',
      tags: ['domain:storage'],
    });
    const imported = await tf.importState(t, 'acme-pubbuckets');
    expect(imported).to.deep.include({
      id: 'acme-pubbuckets',
      policy_id_suffix: 'pubbuckets',
      alerting_enabled: false,
      severity: 'low',
      tags: ['domain:storage'],
    });

    const violation = await converge('sec_policy', null, {
      title: 'V',
      query_id: query.id,
      description: 'd',
      remediation: 'r',
      severity: 'High',
      type: 'Violation',
      policy_id_suffix: 'violation',
    });
    const refused = await tf.importState(t, 'acme-violation').then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(refused?.message).to.match(/Not a compliance policy.*acme-violation is a Violation policy/);
    const wrongWay = await tf.importState('sec_policy', 'acme-pubbuckets').then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(wrongWay?.message).to.match(
      /Not a violation policy.*acme-pubbuckets is a Compliance policy; manage it with sec_policy_compliance/,
    );
    const listed = await tf.list('sec_policy', null);
    expect(listed.map((r) => r.displayName))
      .to.include('V')
      .and.not.include('Public buckets');
    expect((await tf.list(t, null)).map((r) => r.displayName)).to.deep.equal(['Public buckets']);

    await destroy('sec_policy', violation);
    await destroy(t, policy);
    await destroy(type, query);
  });

  it("a policy needs an existing query; the platform's own queries exist, are not listed, and cannot be changed or deleted", async () => {
    const config = configValue(tf.resourceSchema('sec_policy').block, {
      title: 'On nothing',
      query_id: 'TF_No_Such_Query',
      description: 'd',
      remediation: 'r',
      severity: 'High',
      type: 'Violation',
    });
    // Named at plan, where the query is looked up (engine/catalogue/reference-checks.ts), and refused before the
    // create is sent: another configuration could make it first.
    const [missing] = await missingAtPlanRefusedAtApply(tf, 'sec_policy', config);
    expect([missing!.summary, missing!.path]).to.deep.equal(['Names no existing object', 'query_id']);
    expect(missing!.detail).to.match(
      /^"TF_No_Such_Query" is none of the queries the platform holds\. It holds "SEC_Global_/,
    );

    // A query this run plans to make, named by the id its configuration gives (`sec_query.q.query_id`,
    // known at plan), is one the apply will have made before the policy: the plan takes it.
    const queryConfig = cfg(type, { query_id: 'TF_Planned_In_This_Run', query: TRAIL });
    await tf.plan(type, null, queryConfig);
    const onPlanned = configValue(tf.resourceSchema('sec_policy').block, {
      title: 'On a query made in the same run',
      query_id: 'TF_Planned_In_This_Run',
      description: 'd',
      remediation: 'r',
      severity: 'High',
      type: 'Violation',
    });
    await tf.plan('sec_policy', null, onPlanned);
    expect(emulator.get('Queries', 'TF_Planned_In_This_Run'), 'planned, not made').to.equal(undefined);

    const builtIn = await tf.importState(type, 'SEC_Global_CloudA_Trail_TrailChange');
    expect(builtIn).to.deep.include({ owner: 'Platform', evaluator_id: 'CloudATrail' });
    expect(
      (await tf.list(type, null)).map((r) => r.displayName).filter((n) => n.startsWith('SEC_Global_')),
    ).to.deep.equal([]);
    const changed = configValue(tf.resourceSchema(type).block, {
      query_id: 'SEC_Global_CloudA_Trail_TrailChange',
      query: TRAIL,
    });
    const notChanged = await tf.apply(type, builtIn, await tf.plan(type, builtIn, changed), changed).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(notChanged?.message).to.match(/is a built-in query and cannot be changed/);
    const notDeleted = await tf.apply(type, builtIn, await tf.plan(type, builtIn, null), null).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(notDeleted?.message).to.match(/is a built-in query and cannot be deleted/);
  });
});
