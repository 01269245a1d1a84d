/**
 * A filesystem mirror of this checkout's providers (src/providers/project.ts), as a team's machines
 * install them: `init` takes each (`keel/sec`, `keel/vdb`) from it and writes `.terraform/` and the
 * lock file, as from a release's mirror. Unlike `dev_overrides`, which Terraform 1.15's `init` does not apply to providers it finds in
 * a state, and under which it writes neither (so terraform-ls, which asks Terraform for schemas only
 * where one of them is, sees none). Each platform directory holds the executable, a link to bin/.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { BIN_DIR } from './terraform.js';

const HOSTS = ['registry.terraform.io', 'registry.opentofu.org'];

/** Fills `root` with the mirror and returns the CLI configuration that installs from it. */
export function localMirror(root: string): string {
  const platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
  for (const host of HOSTS)
    for (const { namespace, name, version } of PROJECT_PROVIDERS) {
      const dir = join(root, host, namespace, name, version, platform);
      mkdirSync(dir, { recursive: true });
      symlinkSync(join(BIN_DIR, `terraform-provider-${name}`), join(dir, `terraform-provider-${name}_v${version}`));
    }
  const namespaces = [...new Set(PROJECT_PROVIDERS.map((p) => p.namespace))];
  const sources = HOSTS.flatMap((h) => namespaces.map((namespace) => `"${h}/${namespace}/*"`)).join(', ');
  return (
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(root)}\n` +
    `    include = [${sources}]\n  }\n  direct {\n    exclude = [${sources}]\n  }\n}\n`
  );
}
