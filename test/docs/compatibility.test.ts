/**
 * The README's compatibility table makes no claim without its test: each cell is "CI: `<test>`"
 * (the client runs that test here, possibly "CI (what):"), "no" or "no test"; every named test
 * exists and runs that client (a Terraform release by the list it is in: ACCEPTANCE_CLIS and the
 * main judge's for 1.15.5, PATH_TERRAFORM_CLI for 1.11.4, TERRAFORM_RELEASES for any; ACCEPTANCE_CLIS
 * for OpenTofu 1.12, OPENTOFU_1_10_CLI for 1.10). The header's clients are the ones CI runs: every
 * Terraform release of TERRAFORM_RELEASES, newest first, and the OpenTofu and bridge versions npm run
 * clients builds. A feature that came with a Terraform release
 * says which, and is "no" under every earlier one and claimed under every later one.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releasedSince, TERRAFORM_RELEASES } from '../acceptance/real-clients.js';
import { MAIN_TERRAFORM, REPO_ROOT } from '../acceptance/terraform.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

function compatibilityTable(): { header: string[]; rows: string[][] } {
  const readme = read('README.md');
  const start = readme.indexOf('## Compatibility\n');
  expect(start, 'the README has a Compatibility section').to.be.greaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  return { header: cells(lines[0]!), rows: lines.slice(2).map(cells) };
}

/** The version of `module` a real-client module of ours requires (test/real-clients/<dir>/go.mod). */
function requiredVersion(dir: string, module: string): string {
  const line = read(`test/real-clients/${dir}/go.mod`)
    .split('\n')
    .find((l) => l.trim().startsWith(`${module} v`));
  expect(line, `${module} in test/real-clients/${dir}/go.mod`).to.not.equal(undefined);
  return line!.trim().split(/\s+/)[1]!.slice(1);
}

/** How a test file names the Terraform release it runs: by the lists of test/acceptance/real-clients.ts. */
function runsTerraform(text: string, version: string): boolean {
  if (text.includes('TERRAFORM_RELEASES')) return true;
  if (version === MAIN_TERRAFORM) return /ACCEPTANCE_CLIS|MAIN_TERRAFORM_CLI|requireTerraform\(/.test(text);
  if (version === TERRAFORM_RELEASES[0]!.version) return text.includes('PATH_TERRAFORM_CLI');
  return false;
}

describe('README: the compatibility table', () => {
  const { header, rows } = compatibilityTable();
  const terraforms = [...TERRAFORM_RELEASES].reverse().map((r) => r.version);

  it('names the client versions CI runs', () => {
    expect(header[0]).to.equal('Feature');
    expect(header.slice(1, 1 + terraforms.length)).to.deep.equal(terraforms.map((v) => `Terraform ${v}`));
    expect(header[1 + terraforms.length]).to.equal(
      `OpenTofu ${requiredVersion('opentofu', 'github.com/opentofu/opentofu')}`,
    );
    expect(header[2 + terraforms.length]).to.equal(
      `OpenTofu ${requiredVersion('opentofu-1.10', 'github.com/opentofu/opentofu')}`,
    );
    expect(header[3 + terraforms.length]).to.equal(
      `Pulumi, bridge ${requiredVersion('pulumi-bridge', 'github.com/pulumi/pulumi-terraform-bridge/v3')}`,
    );
    expect(header).to.have.length(4 + terraforms.length);
  });

  it('covers the features whose support differs between clients', () => {
    const features = rows.map((r) => r[0]).join('\n');
    for (const feature of [
      'Write-only',
      'Ephemeral',
      'identity',
      'query',
      'Actions',
      '-generate-config-out',
      'Import by id',
      'terraform test',
    ])
      expect(features).to.include(feature);
  });

  it('backs every claim with a test that exists and runs that client', () => {
    const problems: string[] = [];
    for (const row of rows) {
      expect(row, row.join(' | ')).to.have.length(header.length);
      // A feature a Terraform release brought: "(Terraform 1.14)".
      const since = /\(Terraform (\d+\.\d+)\)/.exec(row[0]!)?.[1];
      row.slice(1).forEach((cell, i) => {
        const client = header[i + 1]!;
        const where = `${row[0]} / ${client}`;
        const release = /^Terraform (\S+)$/.exec(client)?.[1];
        if (release && since && !releasedSince(release, since) && cell !== 'no')
          problems.push(`${where}: the feature came with Terraform ${since}, so this cell is "no"`);
        if (release && since && releasedSince(release, since) && cell === 'no')
          problems.push(`${where}: Terraform ${release} has the feature (from ${since}): "no test" at least`);
        if (cell === 'no' || cell === 'no test') return;
        const claim = /^CI(?: \([^)]*\))?: `([^`]+)`$/.exec(cell);
        if (!claim) return problems.push(`${where}: "${cell}" is none of CI, no, no test`);
        const path = claim[1]!;
        if (!existsSync(join(REPO_ROOT, path)) || !path.startsWith('test/'))
          return problems.push(`${where}: no test ${path}`);
        const text = read(path);
        // The newest OpenTofu runs every acceptance suite; 1.10 those that name it.
        const tofu = client === header[header.length - 2] ? 'OPENTOFU_1_10_CLI' : 'ACCEPTANCE_CLIS';
        if (client.startsWith('OpenTofu') && !text.includes(tofu))
          problems.push(`${where}: ${path} does not run under ${client} (${tofu})`);
        // Pulumi itself, or a YAML project on it (pulumi-yaml.ts).
        if (client.startsWith('Pulumi') && !/requireRealClient\(this, 'pulumi'\)|yamlProject\(this,/.test(text))
          problems.push(`${where}: ${path} does not run Pulumi`);
        if (release && !runsTerraform(text, release))
          problems.push(`${where}: ${path} does not run Terraform ${release}`);
      });
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
