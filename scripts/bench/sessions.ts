/**
 * sessions: the sec provider's own CPU in each kind of process Terraform starts for N resources, with
 * the calls Terraform makes there but without Terraform, whose CPU on the same cores makes the scale
 * comparison noisy (±15–30% between runs). One provider process per session, its CPU read from
 * /proc (every thread, nanoseconds) before it is closed:
 * - validate:    ValidateProviderConfig, then ValidateResourceConfig of each resource;
 * - plan-create: ConfigureProvider, then per resource ValidateResourceConfig and a create's PlanResourceChange;
 * - create:      the same, then ApplyResourceChange (a POST and a GET per resource);
 * - refresh:     per resource ValidateResourceConfig, UpgradeResourceState, ReadResource (a GET), PlanResourceChange;
 * - delete:      per resource a delete's PlanResourceChange and ApplyResourceChange (a DELETE).
 * Ten calls in flight, as under `-parallelism=10`; `sec_alert_channel_email`, as the Go anchor manages.
 * `--rate-limit N` gives the emulated account a limit of N calls a second and `--latency MS` delays every
 * answer, as `scale --against-go` does: what a paced process costs beside a busy one.
 *
 * With --beside DIR the sessions of another built checkout (DIR/bin/terraform-provider-sec) alternate
 * with this one's, in turns whose order flips every repetition: a change's effect shows in the medians
 * side by side, where two separate runs differ by more than most changes (the machine drifts).
 *
 * Usage: npm run bench -- sessions [--count N] [--reps R] [--beside DIR] [--rate-limit N] [--latency MS]
 *        (defaults: 200, 7). Linux only.
 */
import { join } from 'node:path';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { encodeJSON } from '../../packages/framework/src/schema/json.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { TerraformClient } from '../../src/tfclient/terraform-client.js';
import {
  bin,
  cpuMsOf,
  emulatorPace,
  machine,
  median,
  paceFlags,
  paceLine,
  type PlatformPace,
  sizeFlags,
} from './util.js';

const TYPE = 'sec_alert_channel_email';
const IN_FLIGHT = 10;
const KINDS = ['validate', 'plan-create', 'create', 'refresh', 'delete'] as const;
type Kind = (typeof KINDS)[number];

/** Runs `work` over `items` with IN_FLIGHT calls at a time. */
async function inFlight<T>(items: readonly T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

export async function sessionsBench(args: string[]): Promise<void> {
  const pace: PlatformPace = {};
  const usage = 'sessions [--count N] [--reps R] [--beside DIR] [--rate-limit N] [--latency MS]';
  const { count, reps, beside } = sizeFlags(args, usage, { count: 200, reps: 7 }, paceFlags(pace));
  const sides = [
    { label: 'this checkout', executable: bin('sec') },
    ...(beside ? [{ label: beside, executable: join(beside, 'bin', 'terraform-provider-sec') }] : []),
  ];
  const emulator = await startSecEmulator(emulatorPace(pace));
  const env = secProviderEnv(emulator);
  // Each side names its own objects: a create of a name another side's objects hold would be refused as
  // an untracked look-alike (docs/decisions.md, "Creates outlive their process").
  const namesOf = (side: number) => Array.from({ length: count }, (_, i) => `ch-${side}-${String(i).padStart(4, '0')}`);
  // The states each side's last create made, which its refresh and delete then use.
  const states = new Map<string, (ObjectValue | null)[]>();

  async function session(kind: Kind, side: (typeof sides)[number]): Promise<number> {
    const client = await TerraformClient.start(side.executable, env);
    try {
      const { block, version } = client.resourceSchema(TYPE);
      const configs = namesOf(sides.indexOf(side)).map((name) =>
        client.config(block, { name, recipients: [`ops-${name}@example.com`] }),
      );
      const stored = states.get(side.label) ?? [];
      if (kind === 'validate') {
        await client.validateProvider({});
        await inFlight(configs, (config) => client.validateResource(TYPE, config));
      } else {
        await client.configure({});
        if (kind === 'plan-create' || kind === 'create') {
          const created: (ObjectValue | null)[] = [];
          await inFlight(configs, async (config, i) => {
            await client.validateResource(TYPE, config);
            const change = await client.plan(TYPE, null, config);
            if (kind === 'create') created[i] = (await client.apply(TYPE, null, change, config)).state;
          });
          if (kind === 'create') states.set(side.label, created);
        } else if (kind === 'refresh') {
          await inFlight(configs, async (config, i) => {
            await client.validateResource(TYPE, config);
            const upgraded = await client.upgrade(TYPE, version, encodeJSON(impliedType(block), stored[i]!));
            const { state } = await client.read(TYPE, upgraded);
            await client.plan(TYPE, state, config);
          });
        } else {
          await inFlight(stored, async (state) => {
            await client.apply(TYPE, state, await client.plan(TYPE, state, null), null);
          });
          states.delete(side.label);
        }
      }
      return cpuMsOf(client.plugin.pid);
    } finally {
      await client.close();
    }
  }

  const cpu = new Map<string, number[]>();
  try {
    for (let rep = 0; rep < reps; rep++) {
      const turn = rep % 2 === 0 ? sides : [...sides].reverse();
      for (const kind of KINDS)
        for (const side of turn) {
          const key = `${side.label}\0${kind}`;
          cpu.set(key, [...(cpu.get(key) ?? []), await session(kind, side)]);
        }
    }
  } finally {
    await emulator.close();
  }

  console.log(
    `\nsessions: sec provider CPU per process, ${count} × ${TYPE}, ${IN_FLIGHT} in flight, ` +
      `medians of ${reps} — ${machine()}`,
  );
  const paced = paceLine(pace);
  if (paced) console.log(`  ${paced}`);
  const header = ['session', ...sides.map((s) => s.label)];
  const rows = KINDS.map((kind) => [
    kind,
    ...sides.map((side) => `${median(cpu.get(`${side.label}\0${kind}`)!).toFixed(0)} ms`),
  ]);
  rows.push([
    'sum',
    ...sides.map(
      (side) => `${KINDS.reduce((sum, kind) => sum + median(cpu.get(`${side.label}\0${kind}`)!), 0).toFixed(0)} ms`,
    ),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows])
    console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd());
}
