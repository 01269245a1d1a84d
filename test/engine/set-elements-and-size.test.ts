/**
 * Two rules judged by the engine's validation of the real providers' types:
 * - a problem inside an element of a set-nested block (which Terraform cannot address) names the
 *   block and the element, by its texts, not only the leaf;
 * - a whole configuration larger than the platform takes in one request is refused before it is sent.
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { Logger } from '../../packages/framework/src/server/log.js';

async function engineOf(name: 'sec' | 'vdb') {
  const def = await loadProviderDef(name);
  const engine = new ProviderEngine(def, new Logger({ level: 'off' }));
  const validate = (type: string, plain: Record<string, unknown>) => {
    const block = def.resources.find((r) => r.typeName === type)!.schema.block;
    return engine.validateResourceConfig(type, configValue(block, plain)).items.filter((d) => d.severity === 'error');
  };
  return { def, validate };
}

describe('validation of set-nested elements and of the whole request', () => {
  it("names the set block and the element (vdb role permissions, cluster labels), at the set's path", async () => {
    const { validate } = await engineOf('vdb');
    const role = { name: 'tf-role', permissions: [{ value: 'read:clusters' }, { value: 'Read Clusters' }] };
    const [permission] = validate('vdb_accounts_role', role);
    expect(permission).to.deep.include({ summary: 'Invalid value for "permissions.value"' });
    expect(permission!.path).to.deep.equal([{ attr: 'permissions' }]);
    expect(permission!.detail).to.match(/^In the `permissions` block with value = "Read Clusters": The value must be/);

    const cluster = {
      name: 'tf-cluster',
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
      configuration: [{ number_of_nodes: 1 }],
      labels: [
        { key: 'team', value: 'data' },
        { key: 'bad key!', value: 'x' },
      ],
    };
    const errors = validate('vdb_accounts_cluster', cluster);
    const labels = errors.filter((d) => d.summary === 'Invalid value for "labels.key"');
    expect(labels).to.have.length(1);
    expect(labels[0]!.path).to.deep.equal([{ attr: 'labels' }]);
    expect(labels[0]!.detail).to.match(/^In the `labels` block with key = "bad key!", value = "x": The value /);
  });

  it("refuses a configuration larger than the platform's request size (sec: 1 MiB)", async () => {
    const { def, validate } = await engineOf('sec');
    expect(def.limits!.bodyBytes).to.equal(1024 * 1024);
    // Each tag within the platform's 8,192 characters, 160 of them within its 1,000 elements:
    // only the whole is too large.
    const policy = {
      title: 'Big',
      query_id: 'TF_Query',
      severity: 'High',
      type: 'Violation',
      description: 'd',
      remediation: 'r',
    };
    const tags = Array.from({ length: 160 }, (_, i) => `tag-${i}-${'x'.repeat(8000)}`);
    const errors = validate('sec_policy', { ...policy, tags });
    expect(errors.map((d) => d.summary)).to.deep.equal(['Configuration too large']);
    const said = /^This object's configuration is \d+ bytes; the platform takes requests of at most 1048576 bytes/;
    expect(errors[0]!.detail).to.match(said);
    expect(validate('sec_policy', { ...policy, tags: tags.slice(0, 100) })).to.deep.equal([]);
  });
});
