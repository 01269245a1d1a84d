/**
 * A test provider served by the framework (`serve` in a module of test/acceptance) as the real CLIs run
 * it: a folder holding `terraform-provider-<name>`, a launcher that runs the module with this Node,
 * for `dev_overrides` (providerInstallationConfig) to point at.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Makes the folder; the caller removes it. */
export function launcherDir(name: string, entry: string): string {
  const dir = mkdtempSync(join(tmpdir(), `keel-${name}-`));
  const executable = join(dir, `terraform-provider-${name}`);
  writeFileSync(executable, `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(executable, 0o755);
  return dir;
}
