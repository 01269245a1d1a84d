/**
 * vdb attributes wired to their API field (src/resources/vdb/wired-fields.ts): a wiring the `.proto`
 * does not allow fails when the schema is built, naming the field and the attribute; a wired attribute
 * is checked by its field's rules, sent when set and read back with proto3's unset-or-zero kept in the
 * form the configuration wrote.
 */
import { expect } from 'chai';
import { attr } from '@keel/provider-framework';
import { apiRules } from '../../../src/resources/vdb/rules.js';
import { wireMessage } from '../../../src/resources/vdb/wired-fields.js';
import { wiredConfiguration as clusterConfiguration } from '../../../src/resources/vdb/cluster/schema.js';

const HYBRID = 'hybrid.v1.HybridCloudEnvironmentConfiguration';
const CLUSTER = 'cluster.v1.ClusterConfiguration';

describe('vdb: attributes wired to their API field', () => {
  it('refuses, when the schema is built, a wiring the .proto does not allow, naming field and attribute', () => {
    const text = attr.string({ optional: true, description: 'x' });
    const cases: Array<[() => unknown, RegExp]> = [
      [
        () => wireMessage(HYBRID, { proxy: text }, { proxy: 'http_proxy' }),
        /HybridCloudEnvironmentConfiguration\.http_proxy \(attribute proxy\): the message has no such field/,
      ],
      [
        () => wireMessage(HYBRID, { level: attr.number({ optional: true, description: 'x' }) }, { level: 'log_level' }),
        /\.log_level \(attribute level\): an enum field cannot be held in number/,
      ],
      [
        () => wireMessage(HYBRID, { tolerations: text }, { tolerations: 'tolerations' }),
        /a field of type vdb\.cloud\.cluster\.v1\.Toleration is mapped by hand/,
      ],
      [
        () =>
          wireMessage(HYBRID, { url: attr.number({ optional: true, description: 'x' }) }, { url: 'http_proxy_url' }),
        /\.http_proxy_url \(attribute url\): a string field cannot be held in number/,
      ],
      [
        () => wireMessage(HYBRID, { hosts: text }, { hosts: 'no_proxy_configs' }),
        /a repeated string field cannot be held in string/,
      ],
      [
        () =>
          wireMessage(
            CLUSTER,
            {
              reserved: attr.number({
                optional: true,
                validate: apiRules(`${CLUSTER}.reserved_cpu_percentage`),
                description: 'x',
              }),
            },
            { reserved: 'reserved_cpu_percentage' },
          ),
        /\.reserved_cpu_percentage \(attribute reserved\): checks ".*" itself; the wiring derives it/,
      ],
    ];
    for (const [wire, message] of cases) expect(wire).to.throw(message);
  });

  it("wires an enum as its value's name: its zero reads as unset and is never sent; another name is refused", () => {
    const level = (name: string) => `HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_${name}`;
    const { fields, send, read } = wireMessage(
      HYBRID,
      { log_level: attr.string({ optional: true, description: 'x' }) },
      { log_level: 'log_level' },
    );
    const problem = (value: string) =>
      fields.log_level.options.validate?.map((v) => v.check(value as never)).find((p) => p !== undefined);
    expect(problem(level('DEBUG'))).to.equal(undefined);
    expect(problem('LOUD')).to.be.a('string');
    expect(problem(level('UNSPECIFIED'))).to.be.a('string');
    expect(send({ log_level: level('DEBUG') })).to.deep.equal({ logLevel: level('DEBUG') });
    expect(send({ log_level: null })).to.deep.equal({});
    expect(read({ logLevel: level('INFO') }, undefined)).to.deep.equal({ log_level: level('INFO') });
    expect(read({ logLevel: level('UNSPECIFIED') }, undefined)).to.deep.equal({ log_level: null });
    expect(read({}, undefined)).to.deep.equal({ log_level: null });
  });

  it("checks a wired attribute by its field's rules, and keeps the attribute's own checks first", () => {
    const own = { description: 'not "forbidden"', check: (v: string) => (v === 'forbidden' ? 'forbidden' : undefined) };
    const { fields } = wireMessage(
      HYBRID,
      { url: attr.string({ optional: true, validate: [own], description: 'x' }) },
      { url: 'http_proxy_url' },
    );
    const derived = apiRules(`${HYBRID}.http_proxy_url`).map((v) => v.description);
    expect(derived).to.not.be.empty;
    expect(fields.url.options.validate?.map((v) => v.description)).to.deep.equal([own.description, ...derived]);
  });

  it('sends what is set, by its JSON name; reads unset and zero as the configuration wrote them', () => {
    const { send, read } = clusterConfiguration;
    expect(
      send({ allowed_ip_source_ranges: ['10.0.0.0/8'], reserved_cpu_percentage: 30, reserved_memory_percentage: null }),
    ).to.deep.equal({ allowedIpSourceRanges: ['10.0.0.0/8'], reservedCpuPercentage: 30 });
    // proto3 leaves an empty list off the wire: nothing to send.
    expect(send({ allowed_ip_source_ranges: [], reserved_cpu_percentage: null })).to.deep.equal({});

    const answer = { allowedIpSourceRanges: [], reservedCpuPercentage: 25 };
    // An optional field (proto3 `optional`) the answer lacks is unset; an empty list is unset or empty.
    expect(read(answer, undefined)).to.deep.equal({
      allowed_ip_source_ranges: null,
      reserved_cpu_percentage: 25,
      reserved_memory_percentage: null,
    });
    expect(read(answer, { allowed_ip_source_ranges: [], reserved_memory_percentage: 40 })).to.deep.equal({
      allowed_ip_source_ranges: [],
      reserved_cpu_percentage: 25,
      reserved_memory_percentage: null,
    });

    // A text: an empty one is unset (never sent), or empty where the configuration wrote it so.
    const hybrid = wireMessage(
      HYBRID,
      { proxy: attr.string({ optional: true, description: 'x' }) },
      { proxy: 'http_proxy_url' },
    );
    expect(hybrid.send({ proxy: '' })).to.deep.equal({});
    expect(hybrid.send({ proxy: 'http://proxy.internal:3128' })).to.deep.equal({
      httpProxyUrl: 'http://proxy.internal:3128',
    });
    expect(hybrid.read({ httpProxyUrl: '' }, { proxy: '' })).to.deep.equal({ proxy: '' });
    expect(hybrid.read({ httpProxyUrl: '' }, { proxy: null })).to.deep.equal({ proxy: null });
    expect(hybrid.read({ httpProxyUrl: 'http://p:1' }, { proxy: '' })).to.deep.equal({ proxy: 'http://p:1' });
  });
});
