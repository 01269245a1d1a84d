#!/usr/bin/env node
// Compiles the plugin protocol .proto files into one protobufjs JSON descriptor
// (dist/proto/descriptor.json) so that provider start-up never parses .proto
// text (start-up latency matters: Terraform launches a provider several times
// per command, protocol.md §2.5). Field names keep their proto spelling.
//
// It also compiles the vdb management API (proto/vdb/**) into a second descriptor,
// dist/proto/vdb-descriptor.json, loaded by src/clients/vdb/proto.ts (client and emulator).
//
// Usage: node scripts/build-proto.mjs [--out <file>] [--vdb-out <file>]
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(repoRoot, 'proto');

// Must match PROTO_FILES in src/server/proto.ts (the fallback parser).
const files = [
  'tfplugin6.proto',
  'plugin/grpc_controller.proto',
  'plugin/grpc_stdio.proto',
  'plugin/grpc_broker.proto',
  'grpc/health/v1/health.proto',
];

function outputPath(argv) {
  const i = argv.indexOf('--out');
  if (i >= 0 && argv[i + 1]) return resolve(argv[i + 1]);
  return join(repoRoot, 'dist', 'proto', 'descriptor.json');
}

const root = new protobuf.Root();
// google/protobuf/{timestamp,empty}.proto come from protobufjs' bundled copies.
root.loadSync(files.map((f) => join(protoDir, f)), { keepCase: true });
root.resolveAll();

const out = outputPath(process.argv.slice(2));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(root.toJSON()) + '\n');
process.stderr.write(`build-proto: wrote ${out}\n`);

// The vdb management API: every .proto under proto/vdb, imports resolved from proto/.
function vdbProtoFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return vdbProtoFiles(path);
      return entry.name.endsWith('.proto') ? [path] : [];
    })
    .sort();
}

function vdbOutputPath(argv) {
  const i = argv.indexOf('--vdb-out');
  if (i >= 0 && argv[i + 1]) return resolve(argv[i + 1]);
  return join(repoRoot, 'dist', 'proto', 'vdb-descriptor.json');
}

const vdbRoot = new protobuf.Root();
const resolveDefault = vdbRoot.resolvePath;
vdbRoot.resolvePath = (origin, target) =>
  target.startsWith('vdb/') ? join(protoDir, target) : resolveDefault.call(vdbRoot, origin, target);
vdbRoot.loadSync(vdbProtoFiles(join(protoDir, 'vdb')), { keepCase: true });
vdbRoot.resolveAll();

const vdbOut = vdbOutputPath(process.argv.slice(2));
mkdirSync(dirname(vdbOut), { recursive: true });
writeFileSync(vdbOut, JSON.stringify(vdbRoot.toJSON()) + '\n');
process.stderr.write(`build-proto: wrote ${vdbOut}\n`);
