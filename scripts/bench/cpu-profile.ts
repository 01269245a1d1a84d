/**
 * Summarises the V8 CPU profiles the provider processes wrote (`npm run bench -- scale --cpu-prof`):
 * CPU per RPC type and the hottest functions, mapped to the sources through the bundles' source maps.
 *
 * A sample counts for an RPC when a frame of its stack is that RPC's handler in
 * src/server/provider-service.ts (by source line) or an engine method it calls (by name: code
 * resumed after an await has no handler frame below it). The rest is gRPC and protobuf work around
 * the handlers, start-up, garbage collection, or idle.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './util.js';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The engine's façade and the parts it hands each RPC to keep one method name per RPC. */
const ENGINE_FILE = /src\/engine\/[\w-]+\.ts$/;

/** Engine methods by the RPC that calls them. */
const ENGINE_METHODS: Record<string, string> = {
  validateResourceConfig: 'ValidateResourceConfig',
  planResourceChange: 'PlanResourceChange',
  planWithIdentity: 'PlanResourceChange',
  applyResourceChange: 'ApplyResourceChange',
  applyWithIdentity: 'ApplyResourceChange',
  readResource: 'ReadResource',
  readWithIdentity: 'ReadResource',
  upgradeResourceState: 'UpgradeResourceState',
  configureProvider: 'ConfigureProvider',
  readDataSource: 'ReadDataSource',
  importResourceState: 'ImportResourceState',
  importWithIdentity: 'ImportResourceState',
};

/** [first line, RPC] of each handler body in provider-service.ts (1-based, ascending). */
function handlerLines(): [number, string][] {
  const source = readFileSync(join(REPO_ROOT, 'src', 'server', 'provider-service.ts'), 'utf8').split('\n');
  const out: [number, string][] = [];
  source.forEach((line, i) => {
    const m = /^\s+(\w+): guarded\('/.exec(line);
    if (m) out.push([i + 1, m[1]!]);
  });
  return out;
}

/** The layer a sample's own function belongs to, by its source. */
function layerOf(source: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (/^src\/(clients)\/|^(undici|zod)\/|^wasm:|node:internal\/deps\/undici/.test(source))
    return 'API client (undici, zod, src/clients)';
  if (/^src\/server\/log\.ts/.test(source)) return 'logging';
  if (/^src\/(engine|schema|resources)\/|^src\/server\/provider-service\.ts/.test(source))
    return 'provider logic (src/engine, schema, resources)';
  if (/^@grpc\/|^protobufjs\/|tfplugin6-messages|^src\/server\/|node:internal\/http2|^@js-sdsl/.test(source))
    return 'gRPC, HTTP/2, protobuf';
  return 'Node runtime (I/O, streams, promises, timers, start-up)';
}

export interface ProfileSummary {
  files: number;
  totalMs: number;
  byRpc: Map<string, number>;
  byLayer: Map<string, number>;
  hottest: [string, number][];
}

export function summariseProfiles(dir: string): ProfileSummary {
  const maps = new Map<string, SourceMap | null>();
  const mapFor = (url: string): SourceMap | null => {
    if (!url.endsWith('.cjs')) return null;
    if (!maps.has(url)) {
      try {
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8'))));
      } catch {
        maps.set(url, null);
      }
    }
    return maps.get(url)!;
  };
  const handlers = handlerLines();
  const byRpc = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byLayer = new Map<string, number>();
  let totalMs = 0;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const where = new Map<number, { source: string; line: number; name: string }>();
    const locate = (n: ProfileNode) => {
      let w = where.get(n.id);
      if (!w) {
        const f = n.callFrame;
        const entry = mapFor(f.url)?.findEntry(f.lineNumber, f.columnNumber) as
          | { originalSource?: string; originalLine?: number }
          | undefined;
        w = entry?.originalSource
          ? {
              source: entry.originalSource.replace(/.*node_modules\//, '').replace(/^(\.\.\/)+/, ''),
              line: entry.originalLine! + 1,
              name: f.functionName || '(anonymous)',
            }
          : { source: f.url || `(${f.functionName})`, line: f.lineNumber + 1, name: f.functionName || '(anonymous)' };
        where.set(n.id, w);
      }
      return w;
    };
    const rpcOf = (id: number): string => {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const w = locate(nodes.get(cur)!);
        if (w.source.endsWith('src/server/provider-service.ts')) {
          let rpc: string | undefined;
          for (const [line, name] of handlers) if (line <= w.line) rpc = name;
          if (rpc && w.line >= handlers[0]![0]) return rpc;
        }
        const byName = ENGINE_FILE.test(w.source) ? ENGINE_METHODS[w.name] : undefined;
        if (byName) return byName;
      }
      const leaf = nodes.get(id)!.callFrame.functionName;
      if (leaf === '(idle)') return '(idle)';
      if (leaf === '(garbage collector)') return '(garbage collector)';
      return '(outside handlers: gRPC, protobuf, start-up)';
    };
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
    for (const [id, ms] of self) {
      const rpc = rpcOf(id);
      byRpc.set(rpc, (byRpc.get(rpc) ?? 0) + ms);
      if (rpc !== '(idle)') {
        totalMs += ms;
        const w = locate(nodes.get(id)!);
        const key = `${w.name} ${w.source}:${w.line}`;
        byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
        const layer = layerOf(w.source, w.name);
        byLayer.set(layer, (byLayer.get(layer) ?? 0) + ms);
      }
    }
  }
  const hottest = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return { files: files.length, totalMs, byRpc, byLayer, hottest };
}
