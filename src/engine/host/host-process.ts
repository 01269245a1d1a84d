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
}

/** How this system shows one process; undefined when it cannot. */
export type ProcessReader = (pid: number) => ProcessInfo | undefined;

/** At most this many levels up: the client, and what started it. */
const LEVELS = 2;
const COMMAND_TIMEOUT_MS = 5_000;

/** The command lines of this process's parent and grandparent, nearest first. */
export function ancestorCommands(read: ProcessReader = systemReader(), start = process.ppid): string[][] {
  const out: string[][] = [];
  let pid = start;
  for (let level = 0; level < LEVELS && pid > 1; level++) {
    const info = read(pid);
    if (!info) break;
    out.push([...info.argv]);
    pid = info.ppid;
  }
  return out;
}

export function systemReader(platform: NodeJS.Platform = process.platform): ProcessReader {
  if (platform === 'linux') return procReader;
  if (platform === 'win32') return windowsReader;
  return psReader;
}

/** Linux: /proc/<pid>/cmdline (NUL-separated) and the parent from /proc/<pid>/stat. */
function procReader(pid: number): ProcessInfo | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv.at(-1) === '') argv.pop();
    // The program's name, in parentheses, may hold spaces: the fields that follow come after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, argv } : undefined;
  } catch {
    return undefined;
  }
}

/** macOS and the BSDs: `ps`, whose command column splits arguments at spaces (enough for flags and names). */
function psReader(pid: number): ProcessInfo | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const match = /^(\d+)\s+(.*)$/s.exec(out);
    return match ? { ppid: Number(match[1]), argv: match[2]!.split(/\s+/) } : undefined;
  } catch {
    return undefined;
  }
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
