/**
 * One workspace's cycle: apply, update, partial destroy, import, full destroy. After every step the
 * books are checked (./ledger.ts) and, while anything is left, a re-plan must find no changes.
 *
 * A Terraform command that fails is run again, as a CI job would be, up to RUNS times in all: faults
 * may fail a command (a create whose outcome the platform never told), but must lose nothing. What
 * a re-run finds is what counts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWorkspace, type ApiObject, type Finding, type StateEntry } from './ledger.js';
import { SOAK_TYPES, fullStep, namePrefix, render, type Step, type WorkspaceShape } from './workload.js';
import type { SoakWorkspace } from './workspace.js';

const RUNS = 3;

/** What the cycles of all workspaces share. */
export interface Books {
  /** The API's objects now. */
  readApi(): Promise<ApiObject[]>;
  /** id → the workspaces whose last state held it. */
  readonly holders: Map<string, Set<number>>;
  /** Where the API's objects are written when a check finds something. */
  readonly outDir: string;
  readonly parallelism: number;
}

/** What one workspace's cycle found. */
export interface CycleTally {
  readonly findings: Finding[];
  nonEmptyReplans: number;
  /** Commands run again after a failure. */
  reruns: number;
  /** Commands that failed every run: a finding of their own. */
  failedCommands: number;
  steps: number;
}

export function emptyTally(): CycleTally {
  return { findings: [], nonEmptyReplans: 0, reruns: 0, failedCommands: 0, steps: 0 };
}

export async function runCycle(
  workspace: SoakWorkspace,
  index: number,
  cycle: number,
  shape: WorkspaceShape,
  books: Books,
  log: (line: string) => void,
): Promise<CycleTally> {
  const tally = emptyTally();
  const where = (step: string) => `cycle ${cycle}, workspace ${index}, ${step}`;

  const command = async (step: string, args: string[]): Promise<boolean> => {
    for (let run = 1; run <= RUNS; run++) {
      const result = await workspace.terraform(args);
      if (result.code === 0) return true;
      if (run < RUNS) {
        tally.reruns++;
        continue;
      }
      tally.failedCommands++;
      log(`${where(step)}: terraform ${args[0]} failed ${RUNS} times; last error:\n${lastLines(result.stderr)}`);
    }
    return false;
  };

  const check = async (step: string, expectEmpty: boolean): Promise<void> => {
    tally.steps++;
    const state = await workspace.state();
    const ids = new Set(state.flatMap((entry) => idOf(entry) ?? []));
    for (const [id, holders] of books.holders) {
      if (ids.has(id)) continue;
      holders.delete(index);
      // The books hold what states hold: an id no state holds is let go, or they would grow every cycle.
      if (holders.size === 0) books.holders.delete(id);
    }
    for (const id of ids) books.holders.set(id, (books.holders.get(id) ?? new Set()).add(index));
    const api = await books.readApi();
    const findings = checkWorkspace(index, state, api, namePrefix, books.holders);
    if (expectEmpty && state.length > 0) {
      findings.push({ kind: 'mismatch', workspace: index, detail: `${state.length} resources left in the state` });
    }
    if (findings.length > 0) {
      const file = join(books.outDir, `api-objects-cycle${cycle}-w${index}-${step}.json`);
      writeFileSync(file, `${JSON.stringify({ step: where(step), findings, objects: api }, null, 2)}\n`);
      for (const finding of findings) log(`${where(step)}: ${describe(finding)}`);
      log(`${where(step)}: the API's objects are in ${file}`);
    }
    tally.findings.push(...findings);
  };

  const replan = async (step: string): Promise<void> => {
    for (let run = 1; run <= RUNS; run++) {
      const result = await workspace.terraform(['plan', '-detailed-exitcode', '-input=false', ...parallel]);
      if (result.code === 0) return;
      if (result.code === 2) {
        tally.nonEmptyReplans++;
        log(`${where(step)}: the re-plan is not empty:\n${changedLines(result.stdout)}`);
        return;
      }
      if (run < RUNS) tally.reruns++;
      else {
        tally.failedCommands++;
        log(`${where(step)}: terraform plan failed ${RUNS} times:\n${lastLines(result.stderr)}`);
      }
    }
  };

  const parallel = [`-parallelism=${books.parallelism}`];
  const applyStep = async (step: string, config: Step): Promise<void> => {
    workspace.write(render(index, config));
    await command(step, ['apply', '-auto-approve', '-input=false', ...parallel]);
    await check(step, false);
    await replan(step);
  };

  await applyStep('apply', fullStep(shape, 'a'));
  await applyStep('update', fullStep(shape, 'b'));
  const kept: Step = {
    version: 'b',
    channels: Math.ceil((shape.channels * 3) / 4),
    roles: Math.ceil((shape.roles * 3) / 4),
    keys: shape.keys - 1,
  };
  await applyStep('partial-destroy', kept);

  // Import: the state forgets every fourth channel and role (the objects stay), then takes them back.
  const forgotten = (await workspace.state()).filter((entry) => /\.(c|role)\d*[13579]$/.test(entry.address));
  const imports = new Map<string, string>();
  for (const entry of forgotten.filter((_, i) => i % 2 === 0)) {
    const kind = entry.type === SOAK_TYPES.channel.type ? 'channel' : 'role';
    imports.set(entry.address, SOAK_TYPES[kind].importId(String(entry.values[SOAK_TYPES[kind].idAttribute])));
  }
  if (imports.size > 0 && (await command('import', ['state', 'rm', ...imports.keys()]))) {
    await applyStep('import', { ...kept, imports });
  }

  await command('destroy', ['destroy', '-auto-approve', '-input=false', ...parallel]);
  await check('destroy', true);
  return tally;
}

function idOf(entry: StateEntry): string | undefined {
  const kind = (Object.keys(SOAK_TYPES) as (keyof typeof SOAK_TYPES)[]).find((k) => SOAK_TYPES[k].type === entry.type);
  return kind === undefined ? undefined : String(entry.values[SOAK_TYPES[kind].idAttribute]);
}

export function describe(finding: Finding): string {
  const address = finding.address ? `${finding.address}: ` : '';
  const object = finding.object ? ` (${finding.object.kind} ${finding.object.id} "${finding.object.name}")` : '';
  return `${finding.kind}: ${address}${finding.detail}${object}`;
}

function lastLines(text: string, count = 30): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/** The plan's lines that say what would change. */
function changedLines(plan: string): string {
  return plan
    .split('\n')
    .filter((line) => /^\s*(#|[~+-]|-\/\+)/.test(line))
    .slice(0, 40)
    .join('\n');
}
