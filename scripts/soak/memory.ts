/**
 * Peak memory while the soak runs, from /proc (Linux): each provider process's high-water RSS
 * (VmHWM: a process that lives between two samples is caught as long as one sample sees it), and
 * this process's RSS and heap, which hold the emulators.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';

export interface MemoryPeaks {
  /** provider name (sec, vdb) → the largest peak RSS of one of its processes, in bytes. */
  readonly providers: Readonly<Record<string, number>>;
  /** This process (the emulators and the soak's books): largest RSS and heap in use sampled. */
  readonly emulatorsRss: number;
  readonly emulatorsHeap: number;
}

const SAMPLE_MS = 200;

export class MemoryWatch {
  private providers: Record<string, number> = {};
  private emulatorsRss = 0;
  private emulatorsHeap = 0;
  private readonly timer: NodeJS.Timeout;

  /**
   * `launcher`: the path in a provider process's command line (bin/start-bundle.cjs); `under`: the
   * directory the soak's workspaces are in, where Terraform starts its providers. A provider process
   * started elsewhere (another test beside the soak, another soak) is not the soak's to count.
   */
  constructor(
    private readonly launcher: string,
    private readonly under: string,
  ) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** The peaks since the last call, which start again from zero. */
  take(): MemoryPeaks {
    this.sample();
    const peaks = { providers: this.providers, emulatorsRss: this.emulatorsRss, emulatorsHeap: this.emulatorsHeap };
    this.providers = {};
    this.emulatorsRss = 0;
    this.emulatorsHeap = 0;
    return peaks;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const usage = process.memoryUsage();
    this.emulatorsRss = Math.max(this.emulatorsRss, usage.rss);
    this.emulatorsHeap = Math.max(this.emulatorsHeap, usage.heapUsed);
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const at = args.indexOf(this.launcher);
        if (at < 0) continue;
        if (!isUnder(readlinkSync(`/proc/${pid}/cwd`), this.under)) continue;
        const provider = args[at + 1] ?? 'unknown';
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
        if (kb) this.providers[provider] = Math.max(this.providers[provider] ?? 0, Number(kb) * 1024);
      } catch {
        // The process ended between the listing and the read.
      }
    }
  }
}

function isUnder(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
