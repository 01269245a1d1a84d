/**
 * The command lines of the processes above this one: the client that started the provider (Terraform,
 * OpenTofu, or pulumi-terraform-bridge's plugin) and the process that started it (Pulumi's CLI). The
 * plugin protocol never says what the user asked for (a destroy, a `-target` plan, which Pulumi stack),
 * and the client's command line does (host-view.ts reads it). Read only when a decision needs it:
 * one file on Linux, one `ps` elsewhere, one PowerShell query on Windows; anything that fails reads
 * as nothing known.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process as its system shows it: its parent and its arguments (the first is its program). */
export interface ProcessInfo {
  readonly ppid: number;
  readonly argv: readonly string[];
  /** When it started, in the system's own terms (Linux: clock ticks since boot): with its pid, which process it is. */
  readonly started?: string;
}

/** How this system shows one process; undefined when it cannot. `startTimes`: it says when each started. */
export type ProcessReader = ((pid: number) => ProcessInfo | undefined) & { readonly startTimes?: boolean };

/** At most this many levels up: the client, and what started it. */
const LEVELS = 2;
const COMMAND_TIMEOUT_MS = 5_000;

/** This process's parent and grandparent, nearest first. */
export function ancestors(
  read: ProcessReader = systemReader(),
  start = process.ppid,
): (ProcessInfo & { pid: number })[] {
  const out: (ProcessInfo & { pid: number })[] = [];
  let pid = start;
  for (let level = 0; level < LEVELS && pid > 1; level++) {
    const info = read(pid);
    if (!info) break;
    out.push({ ...info, pid });
    pid = info.ppid;
  }
  return out;
}

export function systemReader(platform: NodeJS.Platform = process.platform): ProcessReader {
  // Windows says when a process started only through the same PowerShell query, which takes a second:
  // not paid for on every provider start.
  if (platform === 'win32') return windowsReader;
  const reader = platform === 'linux' ? procReader : psReader;
  return Object.assign((pid: number) => reader(pid), { startTimes: true });
}

/** Linux: /proc/<pid>/cmdline (NUL-separated) and the parent from /proc/<pid>/stat. */
function procReader(pid: number): ProcessInfo | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv.at(-1) === '') argv.pop();
    // The program's name, in parentheses, may hold spaces: the fields that follow come after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    // Field 22 of the file, `starttime`; the fields after the name count from its third.
    const started = fields[19];
    return Number.isInteger(ppid)
      ? { ppid, argv, ...(started && /^\d+$/.test(started) ? { started } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** macOS and the BSDs: `ps`, whose command column splits arguments at spaces (enough for flags and names). */
function psReader(pid: number): ProcessInfo | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,lstart=,command=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    return parsePs(out);
  } catch {
    return undefined;
  }
}

/** `ps -o ppid=,lstart=,command=`'s line: the parent, when it started (`Sat Nov 28 05:10:41 2026`), the command. */
export function parsePs(out: string): ProcessInfo | undefined {
  const match = /^(\d+)\s+(\w{3}\s+\w{3}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+\d{4})\s+(.*)$/s.exec(out.trim());
  if (!match) return undefined;
  return { ppid: Number(match[1]), argv: match[3]!.split(/\s+/), started: match[2]!.replace(/\s+/g, ' ') };
}

/** Windows: the process's CIM instance, its command line split as a shell would at spaces and quotes. */
function windowsReader(pid: number): ProcessInfo | undefined {
  try {
    const query = `$p = Get-CimInstance Win32_Process -Filter "ProcessId=${pid}"; $p.ParentProcessId; $p.CommandLine`;
    const out = execFileSync('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', query], {
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
    const [ppid, ...rest] = out.split(/\r?\n/);
    return ppid === undefined || !/^\d+$/.test(ppid.trim())
      ? undefined
      : { ppid: Number(ppid.trim()), argv: splitCommandLine(rest.join(' ')) };
  } catch {
    return undefined;
  }
}

/** A command line split at spaces, keeping what double quotes hold together (Windows' rule, near enough). */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|(\S+)/g)) out.push(match[1] ?? match[2]!);
  return out;
}
