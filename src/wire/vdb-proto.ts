/**
 * The vdb management API's protobuf types, loaded lazily (only when a vdb client or emulator
 * starts): from dist/proto/vdb-descriptor.json (written by scripts/build-proto.mjs), or, when
 * running from source or a partial build, by parsing proto/vdb/** at runtime.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { builtDescriptorPath, findProtoSourceDir } from '../proto-location.js';
import { rootWithValidateImport } from './validate-import.js';

export { VDB_SERVICES, type VdbServiceName } from './vdb-services.js';

/** dist/proto/vdb-descriptor.json, written by scripts/build-proto.mjs. */
export const VDB_DESCRIPTOR_PATH = builtDescriptorPath('vdb-descriptor.json');

let cachedRoot: protobuf.Root | undefined;

export function vdbProtoRoot(): protobuf.Root {
  if (cachedRoot) return cachedRoot;
  let root: protobuf.Root;
  if (existsSync(VDB_DESCRIPTOR_PATH)) {
    root = protobuf.Root.fromJSON(JSON.parse(readFileSync(VDB_DESCRIPTOR_PATH, 'utf8')));
  } else {
    const protoDir = findProtoSourceDir('vdb');
    if (!protoDir) throw new Error(`${VDB_DESCRIPTOR_PATH} not found and no proto/vdb folder above it or the cwd`);
    root = loadFromProtoDir(protoDir);
  }
  root.resolveAll();
  cachedRoot = root;
  return root;
}

/**
 * Parses proto/vdb/**.proto (imports `vdb/...` resolve against `protoDir`; the rules' own import is
 * the library's, vdb-rules.ts).
 */
export function loadFromProtoDir(protoDir: string): protobuf.Root {
  const resolveDefault = protobuf.Root.prototype.resolvePath;
  const root: protobuf.Root = rootWithValidateImport((origin, target) =>
    target.startsWith('vdb/') ? join(protoDir, target) : (resolveDefault.call(root, origin, target) as string),
  );
  root.loadSync(protoFiles(join(protoDir, 'vdb')), { keepCase: true });
  return root;
}

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return protoFiles(path);
      return entry.name.endsWith('.proto') ? [path] : [];
    })
    .sort();
}

export interface VdbMethod {
  /** e.g. `/vdb.cloud.cluster.v1.ClusterService/GetCluster`. */
  readonly path: string;
  /** e.g. `ClusterService/GetCluster`: short enough for diagnostics. */
  readonly operation: string;
  readonly request: protobuf.Type;
  readonly response: protobuf.Type;
}

export function vdbService(serviceName: string): protobuf.Service {
  return vdbProtoRoot().lookupService(serviceName);
}

export function vdbMethod(serviceName: string, methodName: string): VdbMethod {
  const service = vdbService(serviceName);
  const method = service.methods[methodName];
  if (!method) throw new Error(`no method ${methodName} in ${serviceName}`);
  method.resolve();
  return {
    path: `/${serviceName}/${methodName}`,
    operation: `${service.name}/${methodName}`,
    request: method.resolvedRequestType!,
    response: method.resolvedResponseType!,
  };
}
