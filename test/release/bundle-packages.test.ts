/**
 * The npm packages a bundle holds, read from esbuild's inputs (packages/framework/src/release/bundle.ts,
 * packagesOf): what a release's THIRD_PARTY_NOTICES.txt names. Checked on the bundles of sec and vdb as built.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packagesOf } from '../../packages/framework/src/release/bundle.js';
import { REPO_ROOT } from '../../scripts/release/paths.js';

describe('the packages a bundle holds (packagesOf)', () => {
  it('names each package folder once, scoped ones by scope and name, nested ones at their own depth', () => {
    const found = packagesOf([
      'node_modules/zod/v4/core/core.js',
      'node_modules/zod/index.js',
      'node_modules/@grpc/grpc-js/build/src/index.js',
      'node_modules/a/node_modules/b/index.js',
      'src/own.js',
    ]);
    const root = resolve('.').split('\\').join('/');
    expect(found).to.deep.equal(
      ['node_modules/@grpc/grpc-js', 'node_modules/a/node_modules/b', 'node_modules/zod'].map((p) => `${root}/${p}`),
    );
  });

  it("takes an input in a plugin's namespace for no file: the module it stands for is another bundle's", () => {
    expect(packagesOf(['keel-service:dist/node_modules/@keel/provider-framework/dist/index.js'])).to.deep.equal([]);
    expect(packagesOf(['keel-client:node_modules/zod/index.js'])).to.deep.equal([]);
  });

  it("lists no package of the repository's own in sec's and vdb's bundles: the framework is reached by its name, not installed", () => {
    for (const [name, library] of [
      ['sec', 'zod'],
      ['vdb', '@grpc/grpc-js'],
    ]) {
      const listed: string[] = JSON.parse(
        readFileSync(join(REPO_ROOT, 'dist', 'bundle', `terraform-provider-${name}.cjs.packages.json`), 'utf8'),
      );
      expect(listed, name).to.include(`node_modules/${library}`);
      expect(
        listed.filter((dir) => !dir.startsWith('node_modules/')),
        name,
      ).to.deep.equal([]);
    }
  });
});
