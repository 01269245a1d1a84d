/**
 * Provider functions under every client CI has: Terraform 1.11.4 to 1.15.5 and OpenTofu 1.12 and 1.10 (all of them
 * call provider functions: Terraform from 1.8, OpenTofu from 1.7). For each provider, every call its
 * functions declare (function-contracts.ts `examples`) is made in a real configuration:
 * - the good ones as outputs of one apply, whose values must be what the declaration says;
 * - the bad ones as outputs of one plan, which must fail at each call with the client's
 *   "Invalid value for "<parameter>" parameter" and the function's words;
 * - and every example of `examples/<provider>/functions/` applies, as modules of one workspace.
 * Counts are printed per client. Pulumi does not carry provider functions (the README says so;
 * test/acceptance/pulumi.test.ts holds that the bridge's schema has none of them).
 */
import { expect } from 'chai';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { FunctionDef } from '../../packages/framework/src/engine/functions/index.js';
import { hcl } from '../../src/docs/functions.js';
import { ACCEPTANCE_CLIS, OPENTOFU_1_10_CLI, TERRAFORM_RELEASES, type AcceptanceCli } from './real-clients.js';
import { REPO_ROOT, Workspace, type WorkspaceOptions } from './terraform.js';

const DEFS = { sec: secDef, vdb: vdbDef } as const;
type Provider = keyof typeof DEFS;

const CLIENTS: readonly AcceptanceCli[] = [
  ...[...TERRAFORM_RELEASES].reverse().map((r) => r.cli),
  ...ACCEPTANCE_CLIS.filter((c) => c.command === 'tofu'),
  OPENTOFU_1_10_CLI,
];

/** Settings a provider configures with and never uses: no call reaches a platform. */
const FUNCTION_ONLY_CREDENTIALS = { SEC_ACCOUNT: 'functions', SEC_API_TOKEN: 'unused', VDB_API_KEY: 'unused' };

const requires = (p: Provider) => `terraform {\n  required_providers {\n    ${p} = { source = "keel/${p}" }\n  }\n}\n`;
const call = (p: Provider, fn: FunctionDef, args: readonly unknown[]) =>
  `provider::${p}::${fn.name}(${args.map(hcl).join(', ')})`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

interface Tally {
  good: number;
  bad: number;
  examples: number;
}

async function functionsUnder(options: WorkspaceOptions, p: Provider, env: Record<string, string>): Promise<Tally> {
  const fns = DEFS[p].functions ?? [];
  const good = fns.flatMap((fn) =>
    fn.examples.flatMap((e, i) => ('result' in e ? [{ name: `${fn.name}_${i}`, fn, example: e }] : [])),
  );
  const bad = fns.flatMap((fn) =>
    fn.examples.flatMap((e, i) => ('error' in e ? [{ name: `${fn.name}_${i}`, fn, example: e }] : [])),
  );

  const goodWs = new Workspace(
    requires(p) + good.map((g) => `output "${g.name}" {\n  value = ${call(p, g.fn, g.example.args)}\n}\n`).join('\n'),
    env,
    options,
  );
  try {
    await goodWs.expect(['apply', '-auto-approve', '-no-color']);
    const outputs = JSON.parse((await goodWs.expect(['output', '-json'])).stdout) as Record<string, { value: unknown }>;
    for (const g of good)
      expect(outputs[g.name]?.value, `${call(p, g.fn, g.example.args)}`).to.deep.equal(
        'result' in g.example ? g.example.result : undefined,
      );
  } finally {
    goodWs.dispose();
  }

  const badWs = new Workspace(
    requires(p) + bad.map((b) => `output "${b.name}" {\n  value = ${call(p, b.fn, b.example.args)}\n}\n`).join('\n'),
    env,
    options,
  );
  try {
    const plan = await badWs.run(['plan', '-no-color']);
    expect(plan.code, 'the plan of bad calls fails').to.not.equal(0);
    const output = oneLine(plan.stdout + plan.stderr);
    for (const b of bad) {
      if (!('error' in b.example)) continue;
      const parameter = (b.fn.parameters[b.example.argument ?? 0] ?? b.fn.variadic)!.name;
      expect(output, call(p, b.fn, b.example.args)).to.include(oneLine(`Invalid value for "${parameter}" parameter: `));
      expect(output, call(p, b.fn, b.example.args)).to.include(oneLine(b.example.error));
    }
  } finally {
    badWs.dispose();
  }

  // The examples users copy, each a module of one workspace.
  const dir = join(REPO_ROOT, 'examples', p, 'functions');
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  expect(names.sort(), 'one example per function').to.deep.equal(fns.map((f) => f.name).sort());
  const examplesWs = new Workspace(
    requires(p) + names.map((n) => `module "${n}" {\n  source = "./${n}"\n}\n`).join('\n'),
    env,
    options,
  );
  try {
    for (const n of names) cpSync(join(dir, n), join(examplesWs.configDir, n), { recursive: true });
    // Local modules still need recording; `get` does that without touching providers (dev_overrides).
    await examplesWs.expect(['get']);
    await examplesWs.expect(['apply', '-auto-approve', '-no-color']);
  } finally {
    examplesWs.dispose();
  }
  return { good: good.length, bad: bad.length, examples: names.length };
}

for (const cli of CLIENTS)
  describe(`acceptance: provider functions under real ${cli.name}`, function () {
    this.timeout(300_000);
    const runs = new Map<Provider, Promise<Tally>>();

    before(function () {
      const options = cli.workspace(this);
      // OpenTofu 1.10 configures a provider before it calls its functions, even with no provider block
      // (1.11 and Terraform call an unconfigured one): there a configuration sets credentials, which
      // configuring only reads (README, "Functions").
      const env = cli === OPENTOFU_1_10_CLI ? FUNCTION_ONLY_CREDENTIALS : {};
      for (const p of ['sec', 'vdb'] as const) {
        const run = functionsUnder(options, p, env);
        run.catch(() => undefined);
        runs.set(p, run);
      }
    });

    after(async () => {
      const done = await Promise.allSettled(runs.values());
      const tallies = done.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
      const sum = (k: keyof Tally) => tallies.reduce((a, t) => a + t[k], 0);
      console.log(
        `  functions under ${cli.name}: ${sum('good')} calls gave their results, ${sum('bad')} bad calls failed at ` +
          `their argument, ${sum('examples')} examples applied`,
      );
    });

    for (const p of ['sec', 'vdb'] as const)
      it(`${p}: every declared call, good and bad, and every example`, async () => {
        await runs.get(p);
      });
  });
