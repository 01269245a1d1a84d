/**
 * docs/framework/first-provider.md ("Your first provider") as a reader follows it: every `sh` block in
 * order in one shell, starting in this repository, each file block written where its first line says
 * (`ts file=src/store.ts`) at the point the page shows it, with a scratch folder as $HOME and
 * Terraform 1.15.5 as `terraform`. It prints how long each step took.
 */
import { expect } from 'chai';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAIN_TERRAFORM_CLI } from '../acceptance/real-clients.js';
import { npmEnv, REPO_ROOT, runIn, scratchFolder } from './package-scratch.js';

const GUIDE = join(REPO_ROOT, 'docs/framework/first-provider.md');

/** A fenced block of the page: its info string, its text, and the heading it is under. */
interface Block {
  readonly info: string;
  readonly text: string;
  readonly heading: string;
}

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let open: { info: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line === '```') {
        blocks.push({ info: open.info, text: `${open.lines.join('\n')}\n`, heading });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { info: line.slice(3).trim(), lines: [] };
    else if (line.startsWith('## ')) heading = line.slice(3);
  }
  return blocks;
}

/** The shell script the page amounts to, with a line before each step that notes when it began. */
function scriptOf(blocks: readonly Block[]): { script: string; steps: string[] } {
  const steps: string[] = [];
  const lines = ['set -e', `cd ${JSON.stringify(REPO_ROOT)}`];
  for (const block of blocks) {
    const file = /(?:^|\s)file=(\S+)/.exec(block.info)?.[1];
    if (block.info === 'sh') {
      lines.push(`echo "${steps.length} $(date +%s%N)" >> "$GUIDE_TIMES"`, block.text);
      steps.push(`${block.heading}: ${block.text.split('\n')[0]}`);
    } else if (file !== undefined) {
      expect(block.text, `${file} must not hold the script's delimiter`).not.to.include('__GUIDE_FILE__');
      lines.push(`cat > ${JSON.stringify(file)} <<'__GUIDE_FILE__'`, `${block.text}__GUIDE_FILE__`);
    }
  }
  lines.push(`echo "${steps.length} $(date +%s%N)" >> "$GUIDE_TIMES"`);
  return { script: lines.join('\n'), steps };
}

describe('the guide "Your first provider"', function () {
  this.timeout(900_000);

  it('runs as written: pack, install, build, unit-test in process, test under Terraform, apply and re-plan with no changes', async function () {
    const terraform = MAIN_TERRAFORM_CLI.workspace(this).terraform!;
    const scratch = scratchFolder('guide');
    try {
      const home = join(scratch, 'home');
      mkdirSync(home);
      const times = join(scratch, 'times');
      const { script, steps } = scriptOf(blocksOf(readFileSync(GUIDE, 'utf8')));
      expect(steps.length).to.be.greaterThan(5);
      const file = join(scratch, 'guide.sh');
      writeFileSync(file, script);
      const env = npmEnv(process.env, {
        HOME: home,
        GUIDE_TIMES: times,
        PATH: [dirname(terraform), process.env.PATH ?? ''].join(':'),
      });
      for (const key of ['TF_CLI_CONFIG_FILE', 'TF_ACC_TERRAFORM_PATH', 'TF_DATA_DIR', 'TF_LOG']) delete env[key];
      const output = await runIn(home, 'bash', [file], env);

      const marks = readFileSync(times, 'utf8')
        .trim()
        .split('\n')
        .map((line) => Number(line.split(' ')[1]) / 1e6);
      const took = steps.map(
        (step, at) => `      ${((marks[at + 1]! - marks[at]!) / 1000).toFixed(1).padStart(6)} s  ${step}`,
      );
      console.log(`${took.join('\n')}\n      ${((marks.at(-1)! - marks[0]!) / 1000).toFixed(1).padStart(6)} s  in all`);

      expect(output).to.include('terraform-provider-kv 0.1.0');
      // The unit tests alone (3), then `npm test`: they and the cycle under Terraform, written out and in steps (2).
      expect(output).to.match(/^# pass 3$/m);
      expect(output).to.match(/^# pass 5$/m);
      expect(output).not.to.match(/^# fail [1-9]/m);
      expect(output).to.match(/greeting_version = 1/);
      expect(output).to.include('No changes.');
      const store = JSON.parse(readFileSync(join(home, 'kv-demo', 'store.json'), 'utf8'));
      expect(store).to.deep.equal({ 'site/greeting': { key: 'site/greeting', value: 'hello', version: 1 } });
      // The release, installed from its mirror with no dev_overrides, applied its own store.
      const released = JSON.parse(readFileSync(join(home, 'kv-release', 'store.json'), 'utf8'));
      expect(released).to.deep.equal(store);
      expect(readFileSync(join(home, 'kv-release', '.terraform.lock.hcl'), 'utf8')).to.include(
        '"registry.terraform.io/acme/kv"',
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
