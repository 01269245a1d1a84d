#!/usr/bin/env node
// Compiles the plugin protocol .proto files into one protobufjs JSON descriptor
// (dist/proto/descriptor.json) so that provider start-up never parses .proto
// text (start-up latency matters: Terraform launches a provider several times
// per command, protocol.md §2.5). Field names keep their proto spelling.
//
// Usage: node scripts/build-proto.mjs [--out <file>]
import { mkdirSync, writeFileSync } from 'node:fs';
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
