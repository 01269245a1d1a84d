/**
 * The README's compatibility table makes no claim without its test: each cell is "CI: `<test>`"
 * (the client runs that test here), "fixtures…: `<test>`" (requests written from the protocol's
 * documentation, replayed), "no" or "no test"; every named test exists, and one claimed for OpenTofu
 * or Pulumi really runs that client. The clients' versions in the header are the ones CI runs: the
 * installed Terraform, and the OpenTofu and bridge versions npm run clients builds.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, terraformVersion } from '../acceptance/terraform.js';

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

describe('README: the compatibility table', () => {
  const { header, rows } = compatibilityTable();

  it('names the client versions CI runs', () => {
    expect(header[0]).to.equal('Feature');
    expect(header[2]).to.equal(`OpenTofu ${requiredVersion('opentofu', 'github.com/opentofu/opentofu')}`);
    expect(header[4]).to.equal(
      `Pulumi, bridge ${requiredVersion('pulumi-bridge', 'github.com/pulumi/pulumi-terraform-bridge/v3')}`,
    );
    const installed = terraformVersion();
    if (installed !== null) expect(header[1]).to.equal(`Terraform ${installed}`);
    else expect(header[1]).to.match(/^Terraform \d+\.\d+\.\d+$/);
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
    ])
      expect(features).to.include(feature);
  });

  it('backs every claim with a test that exists and runs that client', () => {
    const problems: string[] = [];
    for (const row of rows) {
      expect(row, row.join(' | ')).to.have.length(header.length);
      row.slice(1).forEach((cell, i) => {
        const client = header[i + 1]!;
        const where = `${row[0]} / ${client}`;
        if (cell === 'no' || cell === 'no test') return;
        const claim = /^(CI|fixtures(?: \([^)]*\))?): `([^`]+)`$/.exec(cell);
        if (!claim) return problems.push(`${where}: "${cell}" is none of CI, fixtures, no, no test`);
        const [, kind, path] = claim;
        if (!existsSync(join(REPO_ROOT, path!)) || !path!.startsWith('test/'))
          return problems.push(`${where}: no test ${path}`);
        const text = read(path!);
        if (kind === 'CI' && client.startsWith('OpenTofu') && !text.includes('ACCEPTANCE_CLIS'))
          problems.push(`${where}: ${path} does not run under OpenTofu (ACCEPTANCE_CLIS)`);
        if (kind === 'CI' && client.startsWith('Pulumi') && !text.includes("requireRealClient(this, 'pulumi')"))
          problems.push(`${where}: ${path} does not run Pulumi`);
        if (kind === 'CI' && client.startsWith('Terraform ') && !/requireTerraform|ACCEPTANCE_CLIS/.test(text))
          problems.push(`${where}: ${path} does not run Terraform`);
        if (kind!.startsWith('fixtures') && !path!.startsWith('test/protocol/'))
          problems.push(`${where}: ${path} is not a protocol fixture test`);
        if (kind === 'CI' && client.startsWith('Terraform 1.12'))
          problems.push(`${where}: no such Terraform runs here`);
      });
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
