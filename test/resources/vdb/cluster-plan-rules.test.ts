/**
 * What the platform would refuse of a cluster, judged at plan instead, through the provider
 * executable against the in-process emulator: turning JWT RBAC off once it is on (a one-way switch,
 * `refusedChange`), and cloud provider and region ids in another case than the platform's lower case
 * and account ids (the `lower-case id` form, which the property test's breaking values hold for every argument
 * of it).
 * Nothing is sent for either; values not known yet are not judged.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import { UNKNOWN, type ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';

const TYPE = 'vdb_accounts_cluster';
const JWT_PATH = 'configuration[0].database_configuration[0].service[0].jwt_rbac';

describe('vdb_accounts_cluster: what the platform refuses is refused at plan', function () {
  this.timeout(60_000);
  let h: Harness;
  let small: string;

  before(async () => {
    h = await startHarness({ provisioningMs: 50 });
    small = h.emulator.packageId('aws', 'small');
  });
  after(async () => h?.close());

  /** A cluster with `jwt_rbac` set, or (null) left out of its service block. */
  const cluster = (jwt: boolean | null, over: Record<string, unknown> = {}) => ({
    name: 'tf-plan-rules',
    cloud_provider: 'aws',
    cloud_region: 'eu-central-1',
    configuration: [
      {
        number_of_nodes: 1,
        node_configuration: [{ package_id: small }],
        database_configuration: [{ service: [jwt === null ? {} : { jwt_rbac: jwt }] }],
      },
    ],
    ...over,
  });
  /** The configuration with jwt_rbac not known yet (it depends on another resource). */
  const withUnknownJwt = (config: ObjectValue): ObjectValue => {
    const c = structuredClone(config) as any;
    c.configuration[0].database_configuration[0].service[0].jwt_rbac = UNKNOWN;
    return c;
  };

  it('jwt_rbac = false once it is on: refused at plan at its path, nothing sent; unknown, or left out, accepted', async () => {
    const state = await h.converge(TYPE, null, cluster(true));
    expect(h.emulator.get<any>(VDB_COLLECTIONS.clusters, state.id as string)!.state.jwtRbac).to.equal(true);
    h.emulator.clearRequests();

    const refused = await h.failure(h.plan(TYPE, state, cluster(false)));
    expect(refused.diagnostics.map((d) => ({ summary: d.summary, path: d.path }))).to.deep.equal([
      { summary: 'JWT RBAC cannot be disabled', path: JWT_PATH },
    ]);
    expect(refused.diagnostics[0]!.detail).to.include('Set `jwt_rbac = true` (or remove it), or replace the cluster.');
    expect(
      h.emulator.requests.map((r) => r.method),
      'nothing sent',
    ).to.deep.equal([]);

    const unknown = await h.tf.plan(TYPE, state, withUnknownJwt(h.config(TYPE, cluster(false))));
    expect(unknown.requiresReplace).to.deep.equal([]);
    expect(await h.isNoOp(TYPE, state, cluster(null)), 'left out, the platform value stays').to.equal(true);

    // Off, then on: the direction the platform takes.
    const off = await h.converge(TYPE, null, cluster(false, { name: 'tf-plan-rules-off' }));
    const on = await h.plan(TYPE, off, cluster(true, { name: 'tf-plan-rules-off' }));
    expect(on.requiresReplace).to.deep.equal([]);
    await h.destroy(TYPE, off);
    await h.destroy(TYPE, state);
  });

  it('cloud_provider = "AWS", cloud_region = "EU-CENTRAL-1", an account id in capitals: refused at validation and plan with the lower-case id, nothing sent', async () => {
    h.emulator.clearRequests();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ cloud_provider: 'AWS' }, 'cloud_provider', '"aws"'],
      [{ cloud_region: 'EU-CENTRAL-1' }, 'cloud_region', '"eu-central-1"'],
      [{ account_id: h.emulator.accountId.toUpperCase() }, 'account_id', JSON.stringify(h.emulator.accountId)],
    ];
    for (const [over, path, wanted] of cases) {
      const config = h.config(TYPE, cluster(null, over));
      const atValidation = await h.failure(h.tf.validateResource(TYPE, config));
      expect(atValidation.diagnostics.map((d) => d.path)).to.deep.equal([path]);
      expect(atValidation.diagnostics[0]!.detail).to.include(`must be in lower case`).and.include(wanted);
      const atPlan = await h.failure(h.tf.plan(TYPE, null, config));
      expect(atPlan.diagnostics.map((d) => d.path)).to.deep.equal([path]);
    }
    expect(
      h.emulator.requests.map((r) => r.method),
      'nothing sent',
    ).to.deep.equal([]);
  });
});
