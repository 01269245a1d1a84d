/**
 * codec: msgpack encode/decode throughput of our value system on large realistic states, beside raw
 * @msgpack/msgpack decoding of the same bytes (the floor; target within 2×).
 */
import { decode as rawDecode } from '@msgpack/msgpack';
import { encodeMsgpack, decodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import {
  type CtyType,
  STRING,
  NUMBER,
  BOOL,
  listOf,
  setOf,
  mapOf,
  objectOf,
} from '../../packages/framework/src/schema/cty-type.js';
import type { Value } from '../../packages/framework/src/schema/value.js';
import { median, readFlags, table, machine } from './util.js';

interface Case {
  name: string;
  type: CtyType;
  value: Value;
}

const status = objectOf({
  phase: STRING,
  reason: STRING,
  version: STRING,
  nodes_up: NUMBER,
  healthy: BOOL,
  since: STRING,
});
function clusterCase(statuses: number): Case {
  const type = objectOf({
    id: STRING,
    name: STRING,
    url: STRING,
    labels: mapOf(STRING),
    statuses: listOf(status),
    configuration: listOf(objectOf({ nodes: NUMBER, disk_gib: NUMBER, ram_ratio: NUMBER })),
  });
  const value = {
    id: 'c-0b7f0f6a-94f3-4bde-8c5a-4d2a1f0f6a11',
    name: 'production-vectors',
    url: 'https://c-0b7f0f6a.eu-central-1.vdb-cloud.example',
    labels: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`team-${i}`, `owner-${i}@example.com`])),
    statuses: Array.from({ length: statuses }, (_, i) => ({
      phase: i % 7 ? 'HEALTHY' : 'SCALING',
      reason: `step ${i} completed`,
      version: `v1.${i % 13}.${i % 5}`,
      nodes_up: i % 9,
      healthy: i % 3 !== 0,
      since: `2026-11-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    })),
    configuration: [{ nodes: 5, disk_gib: 512, ram_ratio: 0.25 }],
  };
  return { name: `cluster, ${statuses} statuses`, type, value };
}

function groupType(depth: number): CtyType {
  const filter = objectOf({
    filter_name: STRING,
    field: STRING,
    operation: STRING,
    key: STRING,
    values: setOf(STRING),
  });
  const attrs: Record<string, CtyType> = { operator: STRING, filter: listOf(filter) };
  if (depth > 0) attrs.group = listOf(groupType(depth - 1));
  return objectOf(attrs);
}
function groupValue(depth: number, breadth: number, at: string): Value {
  const v: Record<string, Value> = {
    operator: depth % 2 ? 'AND' : 'OR',
    filter: Array.from({ length: breadth }, (_, i) => ({
      filter_name: `${at}-f${i}`,
      field: 'Cloud A Account',
      operation: 'EQUALS',
      key: null,
      values: Array.from({ length: 5 }, (_, j) => `${100000000000 + i * 10 + j}`),
    })),
  };
  if (depth > 0) v.group = Array.from({ length: breadth }, (_, i) => groupValue(depth - 1, breadth, `${at}.${i}`));
  return v;
}
function resourceGroupCase(): Case {
  const type = objectOf({ id: STRING, name: STRING, type: STRING, enabled: BOOL, group: listOf(groupType(3)) });
  return {
    name: 'resource group, full nesting (4 levels × 6)',
    type,
    value: { id: 'RG_1', name: 'prod', type: 'CLOUD_A', enabled: true, group: [groupValue(3, 6, 'g')] },
  };
}

function megabyteCase(): Case {
  const item = objectOf({
    name: STRING,
    description: STRING,
    count: NUMBER,
    ratio: NUMBER,
    enabled: BOOL,
    tags: listOf(STRING),
  });
  const type = objectOf({ id: STRING, items: listOf(item) });
  const items = Array.from({ length: 4200 }, (_, i) => ({
    name: `item-${i}`,
    description: `A realistic description of item number ${i} in this state.`,
    count: i,
    ratio: i / 7,
    enabled: i % 2 === 0,
    tags: ['alpha', 'beta', `t${i % 10}`],
  }));
  return { name: '~1 MB state', type, value: { id: 'big', items } };
}

function throughput(bytes: number, runs: number, fn: () => void): { ms: number; mbps: number } {
  for (let i = 0; i < 3; i++) fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  const m = median(times);
  return { ms: m, mbps: bytes / 1024 / 1024 / (m / 1000) };
}

export async function codecBench(args: string[]): Promise<void> {
  const [given] = readFlags(args, 'codec [runs]', {}, { positionals: 1 });
  const runs = Number(given ?? 30);
  const rows: [string, string][] = [];
  for (const c of [clusterCase(2000), resourceGroupCase(), megabyteCase()]) {
    const bytes = encodeMsgpack(c.type, c.value);
    const enc = throughput(bytes.length, runs, () => encodeMsgpack(c.type, c.value));
    const dec = throughput(bytes.length, runs, () => decodeMsgpack(c.type, bytes));
    const floor = throughput(bytes.length, runs, () => rawDecode(bytes));
    rows.push([`${c.name} (${(bytes.length / 1024).toFixed(0)} KiB)`, '']);
    rows.push(['  encode', `${enc.ms.toFixed(2)} ms  ${enc.mbps.toFixed(0)} MiB/s`]);
    rows.push([
      '  decode',
      `${dec.ms.toFixed(2)} ms  ${dec.mbps.toFixed(0)} MiB/s  (${(dec.ms / floor.ms).toFixed(2)}× the floor; target ≤ 2×)`,
    ]);
    rows.push(['  raw @msgpack/msgpack decode (floor)', `${floor.ms.toFixed(2)} ms  ${floor.mbps.toFixed(0)} MiB/s`]);
  }
  table(`codec — ${machine()}`, rows);
}
