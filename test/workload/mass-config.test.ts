import { expect } from 'chai';
import { massConfig, type EmulatorConnection } from '../../src/workload/mass-config.js';

const SEC: EmulatorConnection = {
  provider: 'sec',
  url: 'http://127.0.0.1:1',
  account: 'acme',
  apiKey: 'ACME_KEY',
  apiSecret: '_secret',
};
const VDB: EmulatorConnection = {
  provider: 'vdb',
  url: 'http://127.0.0.1:2',
  apiKey: 'vdb_key',
  accountId: '00000000-0000-4000-8000-000000000000',
};

describe('mass workload configuration', () => {
  for (const connection of [SEC, VDB]) {
    describe(connection.provider, () => {
      const count = 45;
      const config = massConfig(connection, { count, prefix: 'load' });

      it('has exactly `count` resources, one block each, every type listed with its own objects', () => {
        expect(config.objects).to.have.length(count);
        expect(config.hcl.match(/^resource "/gm)).to.have.length(count);
        for (const o of config.objects)
          expect(config.hcl).to.include(`resource "${o.type}" "${o.address.split('.')[1]}" {`);
        expect(config.types.flatMap((t) => t.objects)).to.have.members(config.objects as never[]);
        expect(config.types.length).to.be.at.least(4);
        for (const t of config.types) expect(t.objects.every((o) => o.type === t.type)).to.equal(true);
      });

      it('refers only to resources declared before, rendered as bare expressions', () => {
        const seen = new Set<string>();
        let references = 0;
        for (const o of config.objects) {
          for (const [attribute, target] of Object.entries(o.references)) {
            references++;
            expect(seen.has(target.address), `${o.address}.${attribute} → ${target.address}`).to.equal(true);
            expect(config.hcl).to.include(`${target.address}.${target.attribute}`);
            expect(config.hcl).not.to.include(`"${target.address}.${target.attribute}"`);
          }
          seen.add(o.address);
        }
        expect(references).to.be.above(0);
      });

      it('names every object uniquely with the prefix, and reaches the emulator through the environment', () => {
        const names = config.objects.map((o) => JSON.stringify(o.expected));
        expect(new Set(names).size).to.equal(count);
        expect(config.hcl).to.include(`provider "${connection.provider}" {}`);
        expect(Object.values(config.env)).to.include(connection.url);
        expect(config.hcl).not.to.include(connection.apiKey);
      });
    });
  }
});
