/**
 * The reference pages as the registry and HashiCorp's tools read them: `tfplugindocs validate`
 * (built by `npm run clients`) over each provider's docs/<provider> tree, given the schema real
 * Terraform 1.15.5 prints for it (`terraform providers schema -json`), so that besides the layout
 * and front matter it checks that every resource, data source, ephemeral resource, list resource,
 * action and function has its page and no page lacks its type.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireRealClient } from '../acceptance/real-clients.js';
import { REPO_ROOT, requireTerraform, runCommand, Workspace } from '../acceptance/terraform.js';

for (const provider of ['sec', 'vdb'] as const)
  describe(`docs: tfplugindocs validate accepts the ${provider} pages`, function () {
    this.timeout(120_000);

    it('every type and function has its page, in the registry layout', async function () {
      const tfplugindocs = requireRealClient(this, 'tfplugindocs');
      const terraform = requireTerraform(this);
      const ws = new Workspace(
        `terraform {\n  required_providers {\n    ${provider} = { source = "keel/${provider}" }\n  }\n}\n`,
        {},
        { terraform },
      );
      const dir = mkdtempSync(join(tmpdir(), 'keel-tfplugindocs-'));
      try {
        const schema = JSON.parse((await ws.expect(['providers', 'schema', '-json'])).stdout) as {
          provider_schemas: Record<string, unknown>;
        };
        // tfplugindocs finds a provider's schema under HashiCorp's namespace only.
        const ours = schema.provider_schemas[`registry.terraform.io/keel/${provider}`];
        expect(ours, 'the schema Terraform printed').to.not.equal(undefined);
        const functions = Object.keys((ours as { functions?: object }).functions ?? {});
        expect(functions.length, 'functions in the schema').to.be.above(0);
        writeFileSync(
          join(dir, 'schema.json'),
          JSON.stringify({ ...schema, provider_schemas: { [`registry.terraform.io/hashicorp/${provider}`]: ours } }),
        );
        cpSync(join(REPO_ROOT, 'docs', provider), join(dir, 'docs'), { recursive: true });
        const r = await runCommand(
          tfplugindocs,
          [
            'validate',
            '--provider-dir',
            dir,
            '--provider-name',
            provider,
            '--providers-schema',
            join(dir, 'schema.json'),
          ],
          { env: { ...process.env, TF_LOG: '' } },
        );
        expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
        // It looked at the function pages too.
        expect(readFileSync(join(dir, 'docs', 'functions', `${functions[0]}.md`), 'utf8')).to.include('## Signature');
      } finally {
        ws.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
