/**
 * The framework package (packages/framework) as an author gets it: the tarball npm would publish holds
 * the two entry points with their declarations and nothing else, needs no package but the one it declares
 * (yauzl, which reads the zip archive of a saved plan: engine/host/saved-plan.ts), and the
 * example provider (examples/provider-kv), installed from that tarball alone into a scratch folder,
 * builds under strict TypeScript, passes its unit tests with the package's in-process harness and runs
 * its whole cycle under Terraform 1.15.5 and OpenTofu with the package's own test kit.
 */
import { expect } from 'chai';
import { cpSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { list } from 'tar';
import { ACCEPTANCE_CLIS } from '../acceptance/real-clients.js';
import { npmEnv, packFramework, REPO_ROOT, runIn, scratchFolder, type PackedFramework } from './package-scratch.js';

/** What the packed tarball may weigh: it held 256 KiB when the package was made. */
const MAX_PACKED_BYTES = 400 * 1024;

describe('the framework package', function () {
  this.timeout(600_000);
  let scratch: string;
  let packed: PackedFramework;
  const entries: { path: string; size: number }[] = [];

  before(async () => {
    scratch = scratchFolder('package');
    packed = await packFramework(scratch);
    await list({ file: packed.tarball, onReadEntry: (entry) => entries.push({ path: entry.path, size: entry.size }) });
    console.log(`      ${packed.summary.split('\n').join('\n      ')}`);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('holds its entry points, their declarations, the licence and nothing else', () => {
    const paths = entries.map((entry) => entry.path.replace(/^package\//, ''));
    for (const file of ['framework/index', 'framework/testing'])
      expect(paths).to.include.members([`dist/${file}.js`, `dist/${file}.d.ts`]);
    expect(paths).to.include.members(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
    const others = paths.filter(
      (path) =>
        !/^dist\/[a-z0-9/-]+\.(js|d\.ts)$/.test(path) &&
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(path),
    );
    expect(others, 'files beside the compiled modules').to.deep.equal([]);
    // Every module has its declarations, so an author's strict compile sees types everywhere.
    const modules = paths.filter((path) => path.endsWith('.js'));
    expect(modules.filter((path) => !paths.includes(path.replace(/\.js$/, '.d.ts')))).to.deep.equal([]);
    expect(readFileSync(packed.tarball).length).to.be.below(MAX_PACKED_BYTES);
  });

  it('needs no package but yauzl: its modules import only Node, each other and what it declares', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/framework/package.json'), 'utf8'));
    expect(manifest).not.to.have.any.keys('optionalDependencies');
    // Its declarations name Node's types (NodeJS.ProcessEnv): a TypeScript author installs them, as the guide does.
    expect(manifest.peerDependencies).to.deep.equal({ '@types/node': '>=20.19' });
    expect(manifest.peerDependenciesMeta).to.deep.equal({ '@types/node': { optional: true } });
    expect(Object.keys(manifest.dependencies)).to.deep.equal(['yauzl']);
    // The version the providers are built and tested with.
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(manifest.dependencies.yauzl).to.equal(root.dependencies.yauzl);
    const dist = join(REPO_ROOT, 'packages/framework/dist');
    const foreign: string[] = [];
    let seen = 0;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(dist, file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        seen++;
        if (!specifier!.startsWith('node:') && !specifier!.startsWith('.') && specifier !== 'yauzl')
          foreign.push(`${file}: ${specifier}`);
      }
      for (const [, specifier] of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
        if (!specifier!.startsWith('node:') && !specifier!.startsWith('.')) foreign.push(`${file}: ${specifier}`);
    }
    expect(seen, 'imports read').to.be.greaterThan(300);
    expect(foreign).to.deep.equal([]);
  });

  it('builds the example provider from the tarball alone, unit-tests it in process and runs its cycle under Terraform 1.15.5 and OpenTofu', async function () {
    const clis = ACCEPTANCE_CLIS.map((cli) => cli.workspace(this).terraform!);
    const project = join(scratch, 'terraform-provider-kv');
    cpSync(join(REPO_ROOT, 'examples/provider-kv'), project, {
      recursive: true,
      filter: (from) => !/[/\\](node_modules|dist)$/.test(from),
    });
    const env = npmEnv(process.env);
    await runIn(project, 'npm', ['install', packed.tarball], env);
    // Installed from the tarball: a folder of its own, no link into this repository.
    const installed = join(project, 'node_modules/@keel/provider-framework');
    expect(lstatSync(installed).isSymbolicLink()).to.equal(false);
    expect(relative(REPO_ROOT, realpathSync(installed)).startsWith('..')).to.equal(true);
    await runIn(project, 'npm', ['run', 'build'], env);
    const output = await runIn(project, 'npm', ['test'], { ...env, TF_ACC_TERRAFORM_PATH: clis.join(':') });
    console.log(
      output
        .split('\n')
        .filter((line) => /^(ok|not ok) /.test(line))
        .map((line) => `      ${line}`)
        .join('\n'),
    );
    // The unit tests in process (3), and the cycle under each CLI (2).
    expect(output).to.match(/^# pass 5$/m);
    expect(output).to.match(/^# fail 0$/m);
  });
});
