/**
 * Summarises the V8 CPU profiles the provider processes wrote (`npm run bench -- scale --cpu-prof`,
 * `scale --against-go --cpu-prof`): CPU per RPC type, per layer and the hottest functions, mapped to
 * the sources through the bundles' source maps.
 *
 * What a process does before Terraform connects is its start-up. After that, a sample counts for an
 * RPC when a frame of its stack is that RPC's handler in packages/framework/src/server/provider-service.ts (by source
 * line) or an engine method it calls (by name: code resumed after an await has no handler frame
 * below it). The rest is gRPC, protobuf and Node's work around the handlers, garbage collection, or idle.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellLauncher } from '../../packages/framework/src/release/launchers.js';
import { PROJECT_LAUNCH } from '../release/project.js';
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

/**
 * A directory holding a launcher like bin/'s that also profiles: node's --cpu-prof, into
 * $KEEL_BENCH_CPU_PROF_DIR, with the same start-up settings as the real launcher, which it is made from.
 */
export function profilingLauncher(binDir: string, provider: 'sec' | 'vdb'): string {
  mkdirSync(binDir, { recursive: true });
  // The checkout's launcher (the one text every launcher is made of), with the profiler's options, on the
  // checkout's loader.
  const nodeOptions = [...PROJECT_LAUNCH.nodeOptions, '--cpu-prof', '--cpu-prof-dir="$KEEL_BENCH_CPU_PROF_DIR"'];
  const loader = JSON.stringify(join(REPO_ROOT, 'bin', 'start-bundle.cjs'));
  const launcher = shellLauncher(provider, { ...PROJECT_LAUNCH, nodeOptions }, 'checkout').replace(
    '"$dir/start-bundle.cjs"',
    loader,
  );
  writeFileSync(join(binDir, `terraform-provider-${provider}`), launcher, { mode: 0o755 });
  return binDir;
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
  const source = readFileSync(
    join(REPO_ROOT, 'packages', 'framework', 'src', 'server', 'provider-service.ts'),
    'utf8',
  ).split('\n');
  const out: [number, string][] = [];
  source.forEach((line, i) => {
    const m = /^\s+(\w+): guarded\('/.exec(line);
    if (m) out.push([i + 1, m[1]!]);
  });
  return out;
}

/**
 * What a process does before Terraform connects (the first sample under node:net's `onconnection`):
 * our start-up after Node's own bootstrap, which runs before the profiler starts and is not in a profile.
 */
const START_UP = 'start-up (to Terraform connecting)';

/**
 * The layer a sample's own function belongs to, by its source: ours (anything our bundles' source
 * maps name: src/ and the libraries bundled with it), each of Node's stacks the calls go through,
 * garbage collection, and the rest of V8's and Node's native work.
 */
function layerOf(source: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (/^src\/server\/log\.ts/.test(source)) return 'logging';
  if (/^src\/(clients)\/|^(undici|zod)\//.test(source)) return 'ours: API client (src/clients, zod)';
  if (/^src\/(engine|schema|resources)\/|^src\/server\/provider-service\.ts/.test(source))
    return 'ours: provider logic (packages/framework/src/engine, schema, resources)';
  if (/^src\/|^@grpc\/|^protobufjs\/|tfplugin6-messages|^@js-sdsl\//.test(source))
    return 'ours: gRPC framing, protobuf, server (src/wire, packages/framework/src/server)';
  if (/^node:internal\/http2\//.test(source)) return "Node's HTTP/2 (node:internal/http2)";
  if (/^node:(_http_|https|http$|_tls_|tls$|net$|internal\/(net|tls|stream_base_commons|dns))/.test(source))
    return "Node's HTTP/1.1 client, TLS and sockets";
  if (/^node:(events|internal\/(streams|process|timers|async_hooks|fixed_queue|per_context))/.test(source))
    return "Node's streams, events, promises and timers";
  return "V8's and Node's native work (unattributed, buffers, socket writes)";
}

export interface ProfileSummary {
  files: number;
  totalMs: number;
  /** CPU before Terraform connected to each process, summed (also a layer of byLayer). */
  startUpMs: number;
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
  let startUpMs = 0;
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
        if (w.source.endsWith('packages/framework/src/server/provider-service.ts')) {
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
      return '(outside handlers: gRPC, protobuf, Node)';
    };
    const isConnection = (id: number) => {
      const frame = nodes.get(id)!.callFrame;
      return frame.functionName === 'onconnection' && frame.url === 'node:net';
    };
    const connected = new Map<number, boolean>();
    const underConnection = (id: number): boolean => {
      let known = connected.get(id);
      if (known === undefined) {
        const up = parent.get(id);
        known = isConnection(id) || (up !== undefined && underConnection(up));
        connected.set(id, known);
      }
      return known;
    };
    // A process Terraform never connected to spent all of its time starting (or stopping).
    const found = profile.samples.findIndex(underConnection);
    const firstConnection = found < 0 ? profile.samples.length : found;
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (i < firstConnection && nodes.get(id)!.callFrame.functionName !== '(idle)') startUpMs += ms;
      else self.set(id, (self.get(id) ?? 0) + ms);
    });
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
  totalMs += startUpMs;
  byLayer.set(START_UP, startUpMs);
  byRpc.set(START_UP, startUpMs);
  const hottest = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return { files: files.length, totalMs, startUpMs, byRpc, byLayer, hottest };
}
