/**
 * The jobs the killed-run suites kill (killed-runs.test.ts in one working directory, fresh-runners.test.ts
 * across runners): objects whose names the platforms do not keep unique (8 e-mail channels of one name
 * and 4 resource groups of one name on sec; 4 clusters of one name on vdb), the moments to kill at, and
 * the emulator's store as the witness of what was left untracked.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorHandle, Provider } from './examples-workspace.js';
import type { TypeRecord } from './ledger.js';
import type { Workspace } from './terraform.js';

/** Every API call is answered this late while the apply is killed: creates stay on the wire. */
export const SLOW_MS = 1_500;

/** When to kill: once `creates` create requests reached the emulator, `afterMs` later. */
export interface Moment {
  readonly creates: number;
  readonly afterMs: number;
}

export interface Setup {
  readonly types: readonly string[];
  /** The configuration, its objects named after `prefix`; `backend` goes in its `terraform` block. */
  readonly config: (prefix: string, backend?: string) => string;
  readonly moments: readonly Moment[];
  /** How many objects the configuration makes. */
  readonly objects: number;
}

/** `sec_resource_group.prod`, `count` of them (none: one, without `count`), each named `name`. */
export const resourceGroups = (name: string, count?: number) => `resource "sec_resource_group" "prod" {
${count === undefined ? '' : `  count = ${count}\n`}  name  = "${name}"
  type  = "CLOUD_A"
  group {
    operator = "AND"
    filter {
      filter_name = "account"
      field       = "Account"
      operation   = "EQUALS"
      value       = ["123456789012"]
    }
  }
}
`;

export const SETUPS: Record<Provider, Setup> = {
  sec: {
    types: ['sec_alert_channel_email', 'sec_resource_group'],
    objects: 12,
    config: (prefix, backend = '') => `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
  ${backend}
}
provider "sec" {}
resource "sec_alert_channel_email" "ops" {
  count      = 8
  name       = "${prefix}-ops"
  recipients = ["ops@example.com"]
}
${resourceGroups(`${prefix}-prod`, 4)}`,
    // The first wave of creates (Terraform runs ten at a time), and the second.
    moments: [
      { creates: 1, afterMs: 300 },
      { creates: 11, afterMs: 600 },
    ],
  },
  vdb: {
    types: ['vdb_accounts_cluster'],
    objects: 4,
    config: (prefix, backend = '') => `
terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
  ${backend}
}
provider "vdb" {}
data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}
resource "vdb_accounts_cluster" "search" {
  count          = 4
  name           = "${prefix}-search"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }
}
`,
    // Early in the creates, and late, near their answers.
    moments: [
      { creates: 1, afterMs: 200 },
      { creates: 4, afterMs: 1_100 },
    ],
  },
};

/** The ids of objects of the trial's types the emulator holds beyond the baseline that no state resource tracks. */
export function untracked(
  emulator: EmulatorHandle,
  types: Map<string, TypeRecord>,
  baseline: ReadonlyMap<string, ReadonlySet<string>>,
  state: ReadonlyMap<string, { values: Record<string, unknown>; type: string }>,
): string[] {
  const tracked = new Set<string>();
  for (const r of state.values()) {
    const record = types.get(r.type);
    if (record) tracked.add(String(r.values[record.key]));
  }
  const out: string[] = [];
  for (const [collection, before] of baseline)
    for (const id of emulator.ids(collection)) if (!before.has(id) && !tracked.has(id)) out.push(id);
  return out;
}

/**
 * A plain apply after a kill, and, where it stops with "Create outcome unknown" (a request never
 * answered, of a type the platform gives no creation time: it may never have reached the platform),
 * the way out its message gives, as a person takes it: each object it names as new since the request
 * imported to one of the resources it stopped (one object to one resource; a resource left without one
 * is created by the next apply, once the imports show whose the others are), and apply again. The ids
 * imported, and the ids each apply's own output says it took over ("Took over <id>, which a cut-off run
 * made"); any other error fails.
 */
export async function applyFollowingTheWayOut(
  ws: Workspace,
  env: Record<string, string> = {},
): Promise<{ imported: Set<string>; tookOver: Set<string> }> {
  const file = join(ws.configDir, 'imports.tf');
  const imports: string[] = [];
  const taken = new Set<string>();
  const tookOver = new Set<string>();
  for (let round = 0; round < 3; round++) {
    const applied = await ws.run(['apply', '-auto-approve', '-no-color'], env);
    const text = `${applied.stdout}\n${applied.stderr}`.replace(/\s+/g, ' ');
    for (const m of text.matchAll(/Took over (\S+), which a cut-off run made/g)) tookOver.add(m[1]!);
    if (applied.code === 0) {
      rmSync(file, { force: true });
      return { imported: taken, tookOver };
    }
    const before = imports.length;
    for (const error of text.split('Error: ').slice(1)) {
      if (!error.startsWith('Create outcome unknown'))
        throw new Error(`the apply failed otherwise: ${error.slice(0, 800)}`);
      const address = /with (\S+?),/.exec(error)?.[1];
      // Each object it names, with why: those new since the request are what it may have made.
      const ids = [...error.matchAll(/(\S+) \(not among the objects listed before the request/g)].map((m) => m[1]!);
      const id = ids.find((candidate) => !taken.has(candidate));
      if (address === undefined || id === undefined) continue;
      taken.add(id);
      imports.push(`import {\n  to = ${address}\n  id = "${id}"\n}\n`);
    }
    if (imports.length === before) throw new Error(`no object to import: ${text.slice(0, 1500)}`);
    writeFileSync(file, imports.join(''));
  }
  throw new Error('the apply still failed after importing what its messages named');
}
