/**
 * The real clients besides Terraform that the acceptance tests drive: OpenTofu, Pulumi's CLI and
 * pulumi-terraform-bridge's dynamic provider, built from the Go module proxy by `npm run clients`
 * (scripts/clients.mjs) into a cache outside the work tree. CI builds them first (.ci/run), so there
 * a missing client fails the suite; on a developer's machine without them the suites are skipped
 * loudly, as the Terraform ones are without Terraform.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { requireTerraform, type WorkspaceOptions } from './terraform.js';

export const CLIENTS_DIR = process.env.KEEL_CLIENTS_DIR || join(homedir(), '.cache', 'keel-clients', 'bin');

export type RealClient = 'tofu' | 'pulumi' | 'pulumi-resource-terraform-provider' | 'nodejs-sdk';

/** The built client's path, or null where it is not built. */
export function realClientPath(name: RealClient): string | null {
  const path = join(CLIENTS_DIR, name);
  return existsSync(path) ? path : null;
}

/** The client's path; fails in CI and skips the suite elsewhere when it is not built. */
export function requireRealClient(ctx: Mocha.Context, name: RealClient): string {
  const path = realClientPath(name);
  if (path !== null) return path;
  const message = `${name} is not built in ${CLIENTS_DIR}: run \`npm run clients\` (needs Go)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n  !!! ${message}: SKIPPING its acceptance tests !!!\n`);
  ctx.skip();
}

/**
 * The Terraform-compatible CLIs the acceptance suites run under: Terraform from PATH, and OpenTofu
 * as `npm run clients` builds it. The same dev_overrides configuration serves both (OpenTofu reads
 * `keel/<name>` as registry.opentofu.org/keel/<name>). Identity, query and actions are Terraform
 * features, so the suites of those run under Terraform alone.
 */
export const ACCEPTANCE_CLIS: ReadonlyArray<{
  readonly name: 'Terraform' | 'OpenTofu';
  /** Its command, as messages name it. */
  readonly command: 'terraform' | 'tofu';
  /** How a workspace runs this CLI; skips (or fails in CI) where it is not there. */
  readonly workspace: (ctx: Mocha.Context) => WorkspaceOptions;
}> = [
  {
    name: 'Terraform',
    command: 'terraform',
    workspace: (ctx) => {
      requireTerraform(ctx);
      return {};
    },
  },
  { name: 'OpenTofu', command: 'tofu', workspace: (ctx) => ({ terraform: requireRealClient(ctx, 'tofu') }) },
];
