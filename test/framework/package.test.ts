/**
 * The framework package (packages/framework) as an author gets it: the tarball npm would publish holds
 * its entry points (the library, its test kit, its release command) with their declarations and the
 * release's two loader scripts, and needs no package but those it declares: yauzl (which reads the zip
 * archive of a saved plan: engine/host/saved-plan.ts) and, for the release command alone, esbuild (the
 * bundle), tar (the Node runtimes' packages) and postject (the Windows executable), optional peers that
 * a consumer does not install and the example lists in its devDependencies. The example
 * provider (examples/provider-kv), installed from that tarball alone into a scratch folder, builds under
 * strict TypeScript, passes its unit tests with the package's in-process harness and runs its whole
 * cycle under Terraform 1.15.5 and OpenTofu with the package's own test kit; then its `release` script
 * releases it, and each CLI installs it from the release's mirror with no Node on PATH and no
 * dev_overrides, applies its example configuration and re-plans with no changes; its `docs` script
 * writes the reference pages the registry reads, which `tfplugindocs validate` accepts.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { currentPlatform } from '../../packages/framework/src/release/runners.js';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { list } from 'tar';
import { ACCEPTANCE_CLIS, requireRealClient } from '../acceptance/real-clients.js';
import { npmEnv, packFramework, REPO_ROOT, runIn, scratchFolder, type PackedFramework } from './package-scratch.js';

/**
 * What the packed tarball may weigh: it held 256 KiB when the package was made, 436 KiB once it carried
 * the guide and the API reference (40 KiB of them).
 */
const MAX_PACKED_BYTES = 480 * 1024;

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

  /** The example copied to the scratch folder, the tarball installed into it, built: once for the tests below. */
  let example: Promise<string> | undefined;
  const builtExample = () =>
    (example ??= (async () => {
      const project = join(scratch, 'terraform-provider-kv');
      cpSync(join(REPO_ROOT, 'examples/provider-kv'), project, {
        recursive: true,
        filter: (from) => !/[/\\](node_modules|dist|release)$/.test(from),
      });
      const env = npmEnv(process.env);
      await runIn(project, 'npm', ['install', packed.tarball], env);
      // Installed from the tarball: a folder of its own, no link into this repository.
      const installed = join(project, 'node_modules/@keel/provider-framework');
      expect(lstatSync(installed).isSymbolicLink()).to.equal(false);
      expect(relative(REPO_ROOT, realpathSync(installed)).startsWith('..')).to.equal(true);
      await runIn(project, 'npm', ['run', 'build'], env);
      return project;
    })());

  it('holds its entry points, their declarations, the licence, the guide and the API reference, and nothing else', () => {
    const paths = entries.map((entry) => entry.path.replace(/^package\//, ''));
    for (const file of ['index', 'testing', 'server', 'client', 'release/index', 'release/cli'])
      expect(paths).to.include.members([`dist/${file}.js`, `dist/${file}.d.ts`]);
    expect(paths).to.include.members(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
    // The guide and the reference, where an author who has only the tarball finds them.
    expect(paths).to.include.members(['dist/docs/first-provider.md', 'dist/docs/api.md']);
    const others = paths.filter(
      (path) =>
        !/^dist\/[a-z0-9/-]+\.(js|d\.ts)$/.test(path) &&
        !/^dist\/release\/start-(bundle|windows)\.cjs$/.test(path) &&
        !/^dist\/docs\/(first-provider|api)\.md$/.test(path) &&
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(path),
    );
    expect(others, 'files beside the compiled modules').to.deep.equal([]);
    // Every module has its declarations, so an author's strict compile sees types everywhere.
    const modules = paths.filter((path) => path.endsWith('.js'));
    expect(modules.filter((path) => !paths.includes(path.replace(/\.js$/, '.d.ts')))).to.deep.equal([]);
    expect(readFileSync(packed.tarball).length).to.be.below(MAX_PACKED_BYTES);
  });

  it('is reached by the repository as by an author: by its name, each entry point its source', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/framework/package.json'), 'utf8'));
    const tsconfig = JSON.parse(
      readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
    ) as { compilerOptions: { paths: Record<string, string[]> } };
    const entries = Object.entries(manifest.exports as Record<string, string | { default: string }>).filter(
      (entry): entry is [string, { default: string }] => typeof entry[1] !== 'string',
    );
    // TypeScript's paths: each entry point's name to the source its shipped module is compiled from.
    const source = (shipped: string) =>
      shipped.replace(/^\.\/dist\//, './packages/framework/src/').replace(/\.js$/, '.ts');
    expect(tsconfig.compilerOptions.paths).to.deep.equal(
      Object.fromEntries(
        entries.map(([entry, target]) => [`${manifest.name}${entry.slice(1)}`, [source(target.default)]]),
      ),
    );
    // At run time the name gives the very modules the tests of the framework's inside load by path.
    for (const [entry, target] of entries) {
      if (entry === './release') continue; // loads esbuild's and tar's own modules; its face is checked below
      const byName = await import(`${manifest.name}${entry.slice(1)}`);
      const byPath = await import(
        pathToFileURL(join(REPO_ROOT, 'dist', source(target.default).replace(/\.ts$/, '.js'))).href
      );
      expect(Object.keys(byName).sort(), entry).to.deep.equal(Object.keys(byPath).sort());
      for (const name of Object.keys(byPath)) expect(byName[name], `${entry} ${name}`).to.equal(byPath[name]);
    }
  });

  it('needs no package but those it declares: its modules import only Node, each other and those', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/framework/package.json'), 'utf8'));
    expect(manifest).not.to.have.any.keys('optionalDependencies');
    // Its declarations name Node's types (NodeJS.ProcessEnv): a TypeScript author installs them, as the guide does.
    // What only a release needs is the author's to install (the example's devDependencies), not every consumer's.
    const releaseOnly = ['esbuild', 'postject', 'tar'];
    expect(Object.keys(manifest.dependencies)).to.deep.equal(['yauzl']);
    expect(Object.keys(manifest.peerDependencies)).to.deep.equal(['@types/node', ...releaseOnly]);
    expect(manifest.peerDependencies['@types/node']).to.equal('>=20.19');
    for (const name of Object.keys(manifest.peerDependencies))
      expect(manifest.peerDependenciesMeta[name], name).to.deep.equal({ optional: true });
    const declared = ['yauzl', ...releaseOnly];
    // The versions the providers are built, released and tested with, and the example lists.
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    const example = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/provider-kv/package.json'), 'utf8'));
    for (const name of declared) {
      const wanted = root.dependencies[name] ?? root.devDependencies[name];
      expect(manifest.dependencies[name] ?? manifest.peerDependencies[name], name).to.equal(wanted);
      if (releaseOnly.includes(name)) expect(example.devDependencies[name], `the example's ${name}`).to.equal(wanted);
    }
    expect(manifest.bin).to.deep.equal({ 'keel-provider': './dist/release/cli.js' });
    const dist = join(REPO_ROOT, 'packages/framework/dist');
    const foreign: string[] = [];
    let seen = 0;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(dist, file), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        seen++;
        if (!specifier!.startsWith('node:') && !specifier!.startsWith('.') && !declared.includes(specifier!))
          foreign.push(`${file}: ${specifier}`);
      }
      for (const [, specifier] of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
        if (!specifier!.startsWith('node:') && !specifier!.startsWith('.') && !declared.includes(specifier!))
          foreign.push(`${file}: ${specifier}`);
      // Only the release command may use what only a release needs: serving a provider loads none of it.
      if (!file.split(sep).join('/').startsWith('release/'))
        for (const [, specifier] of text.matchAll(/['"]([^'"./][^'"]*)['"]/g))
          if (releaseOnly.includes(specifier!)) foreign.push(`${file}: ${specifier} (the release's alone)`);
    }
    expect(seen, 'imports read').to.be.greaterThan(300);
    expect(foreign).to.deep.equal([]);
  });

  it('installs no release tool for a project that only uses it, whose release stops naming what to install', async () => {
    const project = join(scratch, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const env = npmEnv(process.env);
    await runIn(project, 'npm', ['install', packed.tarball], env);
    const installed = readdirSync(join(project, 'node_modules')).sort();
    expect(installed).to.include('yauzl');
    for (const tool of ['esbuild', 'postject', 'tar']) expect(installed, tool).not.to.include(tool);
    const cli = join(project, 'node_modules/@keel/provider-framework/dist/release/cli.js');
    const run = spawnSync(process.execPath, [cli, 'release', '--platform', 'host'], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(run.status).to.equal(1);
    expect(run.stderr).to.equal(
      'release failed: a release needs esbuild, tar, postject, which a provider lists in its own devDependencies ' +
        '(the framework does not install them for everyone who uses it): npm install --save-dev esbuild tar postject\n',
    );
  });

  it('builds the example provider from the tarball alone, unit-tests it in process and runs its cycle under Terraform 1.15.5 and OpenTofu', async function () {
    const clis = ACCEPTANCE_CLIS.map((cli) => cli.workspace(this).terraform!);
    const project = await builtExample();
    const env = npmEnv(process.env);
    const output = await runIn(project, 'npm', ['test'], {
      ...env,
      TF_ACC: '1',
      TF_ACC_TERRAFORM_PATH: clis.join(':'),
    });
    console.log(
      output
        .split('\n')
        .filter((line) => /^(ok|not ok) /.test(line))
        .map((line) => `      ${line}`)
        .join('\n'),
    );
    // The unit tests in process (3), and the cycle under each CLI, written out and in steps (2 × 2).
    expect(output).to.match(/^# pass 7$/m);
    expect(output).to.match(/^# skipped 0$/m);
    expect(output).to.match(/^# fail 0$/m);
  });

  it('the acceptance kit fails each step that does not hold, naming the step and why, and runs nothing without TF_ACC', async function () {
    const [terraform] = ACCEPTANCE_CLIS.map((cli) => cli.workspace(this).terraform!);
    const project = await builtExample();
    cpSync(join(REPO_ROOT, 'test/framework/acceptance-kit-probe.mjs'), join(project, 'probe.mjs'));
    const env = npmEnv(process.env, { TF_ACC_TERRAFORM_PATH: terraform! });
    const probe = async (extra: Record<string, string>) =>
      JSON.parse(
        (await runIn(project, process.execPath, ['probe.mjs'], { ...env, ...extra })).trim().split('\n').at(-1)!,
      );
    const results = await probe({ TF_ACC: '1' });
    expect(results.holds).to.deep.equal({ ran: true, left: [] });
    expect(results.endsOnError).to.deep.equal({ ran: true, left: [] });
    expect(results.checks).to.deep.equal({ ran: true, left: [] });
    expect(results.planChecksFail).to.deep.include({ step: 1, phase: null, left: [] });
    expect(results.planChecksFail.message).to.equal(
      'step 1: the plan is not as expected:\n  kv_entry.app.version: unknown at plan\n  kv_entry.app.value: not sensitive',
    );
    expect(results.stateChecksFail.message).to.equal(
      'step 1: the state is not as expected:\n  kv_entry.app.version: 1, expected 2',
    );
    expect(results.stateChecksFail.left).to.deep.equal([]);
    // A failed step, applied or not, leaves nothing on the platform: the destroy runs whenever the state holds something.
    for (const failed of ['planChanges', 'state', 'expectErrorApplied', 'drift', 'importVerify', 'expectErrorOther'])
      expect(results[failed].left, `${failed}: what the failed test left`).to.deep.equal([]);
    expect(results.checkDestroyFails).to.deep.include({ step: 1, phase: 'checkDestroy', left: [] });
    expect(results.stepFields).to.deep.equal({ ran: true, seen: ['preConfig'], replaced: true, left: [] });
    expect(results.checkDestroyFails.message).to.equal('checkDestroy after step 1: the store still holds a');
    expect(results.planChanges.step).to.equal(1);
    expect(results.planChanges.message).to.include('expected the plan to make {"kv_entry.app":"update"}');
    expect(results.state.message).to.include('kv_entry.app.value: "1", expected "2"');
    expect(results.expectErrorApplied.message).to.include('was expected to fail with an error matching /anything/');
    expect(results.expectErrorOther.step).to.equal(2);
    expect(results.expectErrorOther.message)
      .to.include('not with an error matching /no such words/')
      .and.include('a part may not be empty');
    expect(results.drift.message)
      .to.include('after applying, the plan is not empty')
      .and.include('kv_entry.app: update');
    expect(results.importVerify.step).to.equal(2);
    expect(results.importVerify.message).to.include('value: state "1", imported "changed"');
    for (const off of ['', '0', 'false'])
      expect(Object.values(await probe({ TF_ACC: off })), `TF_ACC=${off}`).to.deep.equal(
        Array(Object.keys(results).length).fill({ ran: false, left: [] }),
      );
  });

  it('releases the example with its release script from the tarball; each CLI installs it from the mirror with no Node on PATH, applies and re-plans empty', async function () {
    const project = await builtExample();
    const env = npmEnv(process.env);
    // A source changed after the build is refused, naming it, rather than released from the build before it.
    const source = statSync(join(project, 'src', 'store.ts')).mtime;
    const before = new Date(source.getTime() - 60_000);
    utimesSync(join(project, 'dist', 'main.js'), before, before);
    const stale = await runIn(project, 'npx', ['keel-provider', 'release', '--platform', currentPlatform()], env).then(
      () => 'released',
      (error: Error) => error.message,
    );
    expect(stale)
      .to.match(/src\/\w+\.ts changed after dist\/main\.js was built/)
      .and.include('npm run build');
    // The release script builds first.
    const output = await runIn(project, 'npm', ['run', 'release', '--', '--platform', currentPlatform()], env);
    console.log(`      ${output.trim().split('\n').slice(-3).join('\n      ')}`);
    const release = join(project, 'release');
    const archive = readdirSync(release).find((f) => f.endsWith(`_${currentPlatform()}.zip`));
    expect(archive).to.equal(`terraform-provider-kv_0.1.0_${currentPlatform()}.zip`);
    // The registry reads the repository's docs/: the docs script writes them from the declarations and
    // examples/, by tfplugindocs' file names; the release's copy is the same pages.
    await runIn(project, 'npm', ['run', 'docs'], env);
    expect(readdirSync(join(project, 'docs', 'resources'))).to.deep.equal(['entry.md']);
    const entryPage = readFileSync(join(project, 'docs', 'resources', 'entry.md'), 'utf8');
    expect(entryPage)
      .to.include('## Example Usage\n\n```terraform\nresource "kv_entry" "greeting"')
      .and.include("the id is the entry's key")
      .and.include(
        '```shell\n# An entry is imported by its key.\nterraform import kv_entry.greeting examples/greeting',
      );
    expect(readFileSync(join(project, 'docs', 'functions', 'key.md'), 'utf8')).to.include(
      '| `provider::kv::key("team", "db")` | `"team/db"` |',
    );
    expect(readFileSync(join(release, 'docs', 'kv', 'resources', 'entry.md'), 'utf8')).to.equal(entryPage);
    for (const cli of ACCEPTANCE_CLIS) {
      const terraform = cli.workspace(this).terraform!;
      const dir = scratchFolder('released-kv');
      try {
        cpSync(join(project, 'example', 'main.tf'), join(dir, 'main.tf'));
        const config = join(dir, 'cli.tfrc');
        writeFileSync(
          config,
          `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(join(release, 'mirror'))}\n` +
            '    include = ["registry.terraform.io/acme/kv"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/acme/kv"]\n  }\n}\n',
        );
        // Nothing on PATH at all: Terraform is called by its path, the provider runs the runtime it carries.
        const bare = { HOME: dir, TF_CLI_CONFIG_FILE: config, PATH: '', TF_IN_AUTOMATION: '1' };
        const tf = (...args: string[]) => runIn(dir, terraform, [...args, '-input=false', '-no-color'], bare);
        expect(await tf('init')).to.match(/Installing (registry\.terraform\.io\/)?acme\/kv v0\.1\.0/);
        expect(await tf('apply', '-auto-approve')).to.include('greeting_version = 1');
        expect(JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8'))['examples/greeting'].value).to.equal('hello');
        expect(await tf('plan', '-detailed-exitcode'), `${cli.name}: no changes`).to.match(/No changes\./);
        if (cli === ACCEPTANCE_CLIS[0]) {
          // The pages in the repository's docs/ are the registry's layout, with a page for every type and
          // function of the schema Terraform reads from the released provider (tfplugindocs looks under hashicorp/).
          const schema = JSON.parse(
            (await runIn(dir, terraform, ['providers', 'schema', '-json'], bare)).replace(/^[^{]*/, ''),
          );
          const ours = schema.provider_schemas['registry.terraform.io/acme/kv'];
          schema.provider_schemas = { 'registry.terraform.io/hashicorp/kv': ours };
          writeFileSync(join(dir, 'schema.json'), JSON.stringify(schema));
          cpSync(join(project, 'docs'), join(dir, 'docs'), { recursive: true });
          const args = [
            'validate',
            '--provider-dir',
            dir,
            '--provider-name',
            'kv',
            '--providers-schema',
            'schema.json',
          ];
          await runIn(dir, requireRealClient(this, 'tfplugindocs'), args, { ...process.env, TF_LOG: '' });
        }
        // The lock records the package's h1: as the release's network mirror lists it.
        const listed = JSON.parse(
          readFileSync(join(release, 'network-mirror/registry.terraform.io/acme/kv/0.1.0.json'), 'utf8'),
        );
        const [h1] = listed.archives[currentPlatform()].hashes as string[];
        expect(readFileSync(join(dir, '.terraform.lock.hcl'), 'utf8')).to.include(h1!);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
