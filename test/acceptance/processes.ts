/**
 * Processes of a run as the kernel shows them (Linux /proc): the provider processes a Terraform run
 * started, found by the directory they run in (Terraform's -chdir, which they inherit) and their
 * command line, so that a test can kill one outright, as the OOM killer or a CI timeout would.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** The pids of the `provider` (sec, vdb) processes running in `dir`. */
export function providerProcessesIn(dir: string, provider: string): number[] {
  const where = realpathSync(dir);
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = argv.findIndex((a) => a.endsWith('/start-bundle.cjs'));
      if (at < 0 || argv[at + 1] !== provider) continue;
      if (readlinkSync(`/proc/${entry}/cwd`) === where) out.push(Number(entry));
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return out;
}

/** Resolves once no `provider` process runs in `dir`, or fails after `timeoutMs`. */
export async function noProviderProcessesIn(dir: string, provider: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = providerProcessesIn(dir, provider);
    if (left.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${provider} provider processes ${left.join(', ')} still run in ${dir} after ${timeoutMs} ms`);
    await delay(100);
  }
}

/** SIGKILL, ignoring a process that is already gone. */
export function killOutright(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
