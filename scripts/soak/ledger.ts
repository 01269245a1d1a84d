/**
 * The soak's books: every object of the soak's types as the API lists it (read through our own
 * clients, so faults and rate limits apply to the soak's reads too), set against what each
 * workspace's state holds.
 *
 * - orphan: an object named for a workspace that its state does not hold;
 * - duplicate: two objects of one type with one name;
 * - takeover: an object held by a workspace it is not named for, or by two workspaces;
 * - mismatch: a state entry whose object is gone, or whose name or changeable value differs.
 */
import type { SecClient } from '../../src/clients/sec/client.js';
import type { VdbClient } from '../../src/clients/vdb/api.js';
import { SOAK_TYPES, type SoakKind } from './workload.js';

/** One object of the soak's types, as the API lists it. */
export interface ApiObject {
  readonly kind: SoakKind;
  readonly id: string;
  readonly name: string;
  /** The value the update step changes (recipients, description), as text; '' where none. */
  readonly changeable: string;
}

/** One resource instance in a workspace's state (its state file, ./workspace.ts). */
export interface StateEntry {
  readonly address: string;
  readonly type: string;
  readonly values: Record<string, unknown>;
}

export type FindingKind = 'orphan' | 'duplicate' | 'takeover' | 'mismatch';

export interface Finding {
  readonly kind: FindingKind;
  readonly workspace: number;
  /** The resource address, where a state entry is involved. */
  readonly address?: string;
  readonly object?: ApiObject;
  readonly detail: string;
}

/** Every object of the soak's types in the account. */
export async function readApi(sec: SecClient, vdb: VdbClient, accountId: string): Promise<ApiObject[]> {
  const [channels, rules, roles, clusters, keys] = await Promise.all([
    sec.alertChannels.list(),
    sec.alertRules.list(),
    vdb.iam.listRoles({ accountId }),
    vdb.clusters.list({ accountId }),
    vdb.databaseApiKeys.list({ accountId }),
  ]);
  const objects: ApiObject[] = [];
  for (const channel of channels) {
    if (channel.type !== 'EmailUser') continue;
    const recipients = (channel.data as { channelProps: { recipients: string[] } }).channelProps.recipients;
    objects.push({ kind: 'channel', id: channel.intgGuid, name: channel.name, changeable: recipients.join(',') });
  }
  for (const rule of rules) {
    const { name, description } = rule.filters;
    objects.push({ kind: 'rule', id: rule.mcGuid, name, changeable: description });
  }
  for (const role of roles) {
    if (role.roleType !== 'ROLE_TYPE_CUSTOM') continue;
    objects.push({ kind: 'role', id: role.id, name: role.name, changeable: role.description });
  }
  for (const cluster of clusters) {
    if (cluster.deletedAt !== undefined) continue;
    objects.push({ kind: 'cluster', id: cluster.id, name: cluster.name, changeable: '' });
  }
  for (const key of keys) objects.push({ kind: 'key', id: key.id, name: key.name, changeable: '' });
  return objects;
}

/** The kind of a state entry, undefined for types the soak does not manage. */
function kindOf(type: string): SoakKind | undefined {
  return (Object.keys(SOAK_TYPES) as SoakKind[]).find((kind) => SOAK_TYPES[kind].type === type);
}

/** What the state says the object's changeable value is, in ApiObject's form. */
function stateChangeable(kind: SoakKind, values: Record<string, unknown>): string {
  if (kind === 'channel') return ((values.recipients as string[] | undefined) ?? []).join(',');
  if (kind === 'rule' || kind === 'role') return String(values.description ?? '');
  return '';
}

const stateName = (values: Record<string, unknown>) => String(values.name ?? '');

/**
 * Checks one workspace's state against the API. `prefixOf(w)` is workspace w's name prefix;
 * `holders` maps every id to the workspaces whose last state held it (this one's included).
 */
export function checkWorkspace(
  workspace: number,
  state: readonly StateEntry[],
  api: readonly ApiObject[],
  prefixOf: (workspace: number) => string,
  holders: ReadonlyMap<string, ReadonlySet<number>>,
): Finding[] {
  const findings: Finding[] = [];
  const prefix = prefixOf(workspace);
  const byId = new Map(api.map((object) => [`${object.kind}:${object.id}`, object]));
  const held = new Set<string>();
  for (const entry of state) {
    const kind = kindOf(entry.type);
    if (kind === undefined) continue;
    const id = String(entry.values[SOAK_TYPES[kind].idAttribute] ?? '');
    held.add(`${kind}:${id}`);
    const object = byId.get(`${kind}:${id}`);
    const where = { workspace, address: entry.address };
    if (object === undefined) {
      findings.push({
        kind: 'mismatch',
        ...where,
        detail: `the state holds ${kind} ${id}, which the API does not list`,
      });
      continue;
    }
    if (!object.name.startsWith(prefix)) {
      findings.push({ kind: 'takeover', ...where, object, detail: `it holds an object named for another workspace` });
    }
    const others = [...(holders.get(id) ?? [])].filter((other) => other !== workspace);
    if (others.length > 0) {
      findings.push({ kind: 'takeover', ...where, object, detail: `workspace(s) ${others.join(', ')} hold it too` });
    }
    const expected = { name: stateName(entry.values), changeable: stateChangeable(kind, entry.values) };
    if (object.name !== expected.name || object.changeable !== expected.changeable) {
      findings.push({
        kind: 'mismatch',
        ...where,
        object,
        detail: `the state says ${JSON.stringify(expected)}, the API ${JSON.stringify({
          name: object.name,
          changeable: object.changeable,
        })}`,
      });
    }
  }
  const mine = api.filter((object) => object.name.startsWith(prefix));
  for (const object of mine) {
    if (!held.has(`${object.kind}:${object.id}`)) {
      findings.push({ kind: 'orphan', workspace, object, detail: `no state holds ${object.kind} "${object.name}"` });
    }
  }
  const seen = new Map<string, ApiObject>();
  for (const object of mine) {
    const key = `${object.kind}:${object.name}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, object);
    else {
      const detail = `${object.kind} "${object.name}" exists twice: ${first.id} and ${object.id}`;
      findings.push({ kind: 'duplicate', workspace, object, detail });
    }
  }
  return findings;
}
