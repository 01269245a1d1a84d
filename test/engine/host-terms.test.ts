/**
 * Messages in the words of the client that runs the provider (packages/framework/src/engine/host/host-terms.ts): what
 * the
 * client is and what its user asked, from the command lines above the provider (host-view.ts), and a
 * plan's diagnostics as a Pulumi user reads them.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Diagnostics } from '../../packages/framework/src/engine/diagnostics/index.js';
import { HostTerms, HostView } from '../../packages/framework/src/engine/host/index.js';
import { PULUMI_BRIDGE_VERSION } from '../../packages/framework/src/engine/host/host-view.js';
import { parsePs, type ProcessInfo } from '../../packages/framework/src/engine/host/host-process.js';
import { execFileSync } from 'node:child_process';
import { attrStep, indexStep } from '../../packages/framework/src/schema/path.js';
import secDef from '../../src/resources/sec/index.js';

/** A host whose client runs `client` and was started by `above`. */
function host(client: string[], above: string[] = ['bash'], env: NodeJS.ProcessEnv = {}, cwd = '/nowhere') {
  const chain: Record<number, ProcessInfo> = { 10: { ppid: 11, argv: client }, 11: { ppid: 1, argv: above } };
  return new HostView(env, cwd, (pid) => chain[pid], 10);
}

const secTerms = (view: HostView) =>
  new HostTerms(view, {
    name: 'sec',
    environmentPrefix: 'SEC',
    resources: new Map(secDef.resources.map((r) => [r.typeName, r.schema])),
    dataSources: secDef.dataSources.map((d) => d.typeName),
  });

describe('engine: the client that runs the provider, and messages in its words', () => {
  it('tells a destroy and a -target plan from the client’s command line and TF_CLI_ARGS', () => {
    const cases: [string[], NodeJS.ProcessEnv, boolean, boolean][] = [
      [['terraform', '-chdir=infra', 'destroy', '-auto-approve'], {}, true, false],
      [['terraform', 'apply', '-destroy'], {}, true, false],
      [['/usr/bin/python3', '/clients/terraform-1.15.5/terraform', 'plan', '-destroy=true'], {}, true, false],
      [['tofu', 'plan', '-target=sec_query.q'], {}, false, true],
      [['terraform', 'plan', '-target', 'sec_query.q'], {}, false, true],
      [['terraform', 'apply'], { TF_CLI_ARGS_apply: '-destroy' }, true, false],
      [['terraform', 'apply', '-var', 'name=destroy'], {}, false, false],
      [['terraform', 'plan'], {}, false, false],
      // Every spelling Go's flag package takes for true, and none for false.
      ...['1', 't', 'T', 'TRUE', 'true', 'True'].map((v): [string[], NodeJS.ProcessEnv, boolean, boolean] => [
        ['terraform', 'plan', `-destroy=${v}`],
        {},
        true,
        false,
      ]),
      ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((v): [string[], NodeJS.ProcessEnv, boolean, boolean] => [
        ['tofu', 'apply', `--destroy=${v}`],
        {},
        false,
        false,
      ]),
    ];
    for (const [argv, env, destroying, targeted] of cases) {
      const view = host(argv, ['bash'], env);
      view.configured('1.15.5');
      expect(view.command, argv.join(' ')).to.deep.equal({ destroying, targeted });
    }
  });

  it('knows an apply of a saved plan by its plan file, past flags and their values', () => {
    const cases: [string[], boolean][] = [
      [['tofu', 'apply', 'p'], true],
      [['terraform', '-chdir=infra', 'apply', '-auto-approve', '-input=false', 'tfplan'], true],
      [['terraform', 'apply', '-parallelism', '3', '-lock-timeout', '5m', '-compact-warnings', 'out.plan'], true],
      [['terraform', 'apply', '--', 'plan file'], true],
      [['terraform', 'apply', '-var', 'name=p', '-var-file', 'x.tfvars', '-auto-approve'], false],
      [['terraform', 'apply', '-replace', 'sec_query.q'], false],
      [['tofu', 'plan', '-out', 'p'], false],
      [['terraform', 'apply'], false],
    ];
    for (const [argv, saved] of cases) {
      const view = host(argv, ['bash'], {}, '/work/infra');
      view.configured('1.15.5');
      expect(view.command.appliesSavedPlan === true, argv.join(' ')).to.equal(saved);
      // Its path, from where the client runs the provider (after -chdir).
      if (saved) expect(view.command.savedPlan, argv.join(' ')).to.equal(join('/work/infra', argv.at(-1)!));
    }
  });

  it('knows which run of the client it serves: the client process, by its pid and when it started', () => {
    const at = (started: string | undefined) => {
      const chain: Record<number, ProcessInfo> = {
        10: { ppid: 11, argv: ['terraform', 'apply'], ...(started ? { started } : {}) },
      };
      return new HostView(
        {},
        '/nowhere',
        Object.assign((pid: number) => chain[pid], { startTimes: true }),
        10,
      );
    };
    expect(at('8812').run).to.equal('10-8812');
    expect(at('8813').run, 'the same pid, another process').to.not.equal(at('8812').run);
    expect(at(undefined).run, 'a system that does not say').to.equal(undefined);
    const pulumi = at('8812');
    pulumi.configured(PULUMI_BRIDGE_VERSION);
    expect(pulumi.run, 'Pulumi: its walk does not show the stack before its creates').to.equal(undefined);
    // This machine's own: Linux's /proc, and `ps` (as on macOS) parsed alike.
    const own = new HostView(process.env, process.cwd());
    expect(own.run).to.match(/^\d+-\d+$/);
    const line = execFileSync('ps', ['-o', 'ppid=,lstart=,command=', '-p', String(process.pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    });
    const parsed = parsePs(line)!;
    expect(parsed.ppid).to.equal(process.ppid);
    expect(parsed.started).to.match(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/);
    expect(parsed.argv[0]).to.equal(process.argv0);
    expect(parsePs('  412 Sat Nov  8 05:10:41 2026 /usr/local/bin/terraform apply -auto-approve')).to.deep.equal({
      ppid: 412,
      argv: ['/usr/local/bin/terraform', 'apply', '-auto-approve'],
      started: 'Sat Nov 8 05:10:41 2026',
    });
    expect(parsePs('412 /usr/local/bin/terraform apply'), 'no start time: not this format').to.equal(undefined);
  });

  it('knows whether the plan walk reads every object but what it forgets: Terraform 1.10 and later, refreshing', () => {
    const cases: [string[], string, NodeJS.ProcessEnv, boolean][] = [
      [['terraform', 'apply'], '1.15.5', {}, true],
      [['/usr/bin/python3', '/clients/terraform-1.13.0/terraform', 'apply', '-auto-approve'], '1.13.0', {}, true],
      [['terraform', 'apply'], '1.10.0', {}, true],
      [['terraform', 'apply'], '2.0.0', {}, true],
      // Before 1.10 Terraform read what it forgot, as OpenTofu does.
      [['terraform', 'apply'], '1.9.8', {}, false],
      [['tofu', 'apply'], '1.12.6', {}, false],
      [['terraform', 'apply'], '', {}, false],
      // `-refresh=false` reads nothing, in every spelling of false Go's flag package takes, and from TF_CLI_ARGS.
      ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((v): [string[], string, NodeJS.ProcessEnv, boolean] => [
        ['terraform', 'apply', `-refresh=${v}`],
        '1.15.5',
        {},
        false,
      ]),
      [['terraform', 'apply'], '1.15.5', { TF_CLI_ARGS: '-refresh=false' }, false],
      [['terraform', 'apply', '--refresh=true'], '1.15.5', {}, true],
      [['terraform', 'apply', '-refresh-only'], '1.15.5', {}, true],
    ];
    for (const [argv, version, env, reads] of cases) {
      const view = host(argv, ['bash'], env);
      view.configured(version);
      expect(view.readsAllButForgotten, `${argv.join(' ')} (${version}) ${JSON.stringify(env)}`).to.equal(reads);
    }
  });

  it('knows OpenTofu by its program and Pulumi by what the bridge sends, and Pulumi’s stack', () => {
    const tofu = host(['/home/u/bin/tofu', 'plan']);
    tofu.configured('1.12.6');
    expect(tofu.kind).to.equal('opentofu');
    const pulumi = host(
      ['pulumi-resource-terraform-provider', '127.0.0.1:1'],
      ['pulumi', 'up', '--yes', '-s', 'org/app/dev'],
    );
    pulumi.configured(PULUMI_BRIDGE_VERSION);
    expect([pulumi.kind, pulumi.command.stack, pulumi.appliesRightAfterPlan]).to.deep.equal(['pulumi', 'dev', true]);
    const fromEnv = host(['bridge'], ['pulumi', 'up'], { PULUMI_STACK: 'staging' });
    fromEnv.configured(PULUMI_BRIDGE_VERSION);
    expect(fromEnv.command.stack).to.equal('staging');
  });

  it('reads the stack `pulumi stack select` chose for the project', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-pulumi-project-'));
    try {
      writeFileSync(join(dir, 'Pulumi.yaml'), 'name: app\nruntime: yaml\n');
      const home = join(dir, 'home');
      mkdirSync(join(home, 'workspaces'), { recursive: true });
      const digest = createHash('sha1')
        .update(realpathSync(join(dir, 'Pulumi.yaml')))
        .digest('hex');
      writeFileSync(
        join(home, 'workspaces', `app-${digest}-workspace.json`),
        JSON.stringify({ stacks: { 'file:///state': 'organization/app/qa' } }),
      );
      const view = host(['bridge'], ['pulumi', 'up'], { PULUMI_PROJECT: 'app', PULUMI_HOME: home }, dir);
      view.configured(PULUMI_BRIDGE_VERSION);
      expect(view.command.stack).to.equal('qa');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('under Pulumi, a diagnostic names the type token and the property, not the Terraform type and path', () => {
    const view = host(['bridge'], ['pulumi', 'up', '-s', 'dev']);
    view.configured(PULUMI_BRIDGE_VERSION);
    const diags = new Diagnostics().error(
      'Names no existing object',
      'sec_policy refers to "Q", which is none of the queries the platform holds.',
      [attrStep('query_id')],
    );
    diags.warning('Unknown alert profile', 'No alert profile is named "P".', [
      attrStep('alerting'),
      indexStep(0),
      attrStep('profile'),
    ]);
    const out = secTerms(view).inClientWords('sec_policy', diags).items;
    expect(out.map((d) => [d.summary, d.detail, d.path])).to.deep.equal([
      [
        'Names no existing object',
        '`queryId`: sec:index/policy:Policy refers to "Q", which is none of the queries the platform holds.',
        undefined,
      ],
      ['Unknown alert profile', '`alerting[0].profile`: No alert profile is named "P".', undefined],
    ]);
    const terraform = host(['terraform', 'plan']);
    terraform.configured('1.15.5');
    expect(secTerms(terraform).inClientWords('sec_policy', diags)).to.equal(diags);
  });

  it('advises a setting and an import as each client’s user gives them', () => {
    const terraform = host(['terraform', 'plan']);
    terraform.configured('1.15.5');
    const tf = secTerms(terraform);
    expect(tf.setting('untracked_objects', 'create')).to.equal(
      '`untracked_objects = "create"` in the provider block, or `SEC_UNTRACKED_OBJECTS=create` in the environment of one run',
    );
    expect(tf.importAdvice('sec_query', true, ['Q'])).to.include("`terraform import <address> 'Q'`");
    const tofu = host(['tofu', 'plan']);
    tofu.configured('1.12.6');
    expect(secTerms(tofu).importAdvice('sec_query', true, ['Q'])).to.include("`tofu import <address> 'Q'`");
    const pulumi = host(['bridge'], ['pulumi', 'up']);
    pulumi.configured(PULUMI_BRIDGE_VERSION);
    const pu = secTerms(pulumi);
    expect(pu.setting('untracked_objects', 'create')).to.equal(
      '`pulumi config set sec:untrackedObjects create`, or `SEC_UNTRACKED_OBJECTS=create` in the environment of one run',
    );
    expect(pu.importAdvice('sec_query', true, ['Q'])).to.include(
      "`pulumi import sec:index/query:Query <resource name> 'Q'`",
    );
  });
});
