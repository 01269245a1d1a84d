/**
 * src/providers/project.ts describes every provider the repository builds, and the tools take their
 * providers from it: each entry agrees with its definition (name, namespace, version), names entry
 * modules and files that exist, and has the wrapper Terraform runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { PROJECT_PROVIDERS, builtModule, projectProvider, sourceAddress } from '../../src/providers/project.js';
import { REPO_ROOT } from '../../scripts/release/paths.js';

describe('the providers the repository builds (src/providers/project.ts)', () => {
  it('are named once each', () => {
    const names = PROJECT_PROVIDERS.map((p) => p.name);
    expect(names).to.deep.equal([...new Set(names)]);
  });

  for (const provider of PROJECT_PROVIDERS) {
    describe(sourceAddress(provider), () => {
      it('agrees with its definition: name, namespace and version', async () => {
        const def = await provider.definition();
        expect({ name: def.name, namespace: def.namespace, version: def.version }).to.deep.equal({
          name: provider.name,
          namespace: provider.namespace,
          version: provider.version,
        });
      });

      it('names entry modules that exist, in source and as built, and has its bin/ wrapper', () => {
        for (const module of [provider.startModule, provider.serviceModule]) {
          expect(existsSync(join(REPO_ROOT, module)), module).to.equal(true);
          expect(existsSync(join(REPO_ROOT, builtModule(module))), builtModule(module)).to.equal(true);
        }
        expect(existsSync(join(REPO_ROOT, 'bin', `terraform-provider-${provider.name}`))).to.equal(true);
      });

      it('names release assets the build makes', () => {
        for (const asset of [...provider.releaseAssets, ...provider.emulatorAssets])
          expect(existsSync(join(REPO_ROOT, asset)), asset).to.equal(true);
      });

      it('is found by its name', () => {
        expect(projectProvider(provider.name)).to.equal(provider);
      });
    });
  }

  it('refuses a name it does not hold, saying which it does', () => {
    expect(() => projectProvider('nope')).to.throw(/unknown provider "nope" \(this repository builds sec, vdb\)/);
  });
});
