#!/usr/bin/env node
// Generates the plugin protocol's message codecs (scripts/proto-codegen.mjs: one encoder and one decoder
// per message, over packages/framework/src/server/protobuf-wire.ts), in two modules, each with its services' methods
// listed beside its messages:
//   dist/packages/framework/src/server/go-plugin-messages.js  go-plugin's own services (GRPCController, GRPCStdio,
//                                          GRPCBroker) and grpc.health.v1, which every provider
//                                          process serves from its first call;
//   dist/packages/framework/src/server/tfplugin6-messages.js  tfplugin6, which only a process that serves the
// provider's
//                                          RPCs needs (the executables load it in a second bundle,
//                                          scripts/bundle.mjs).
// packages/framework/src/server/proto.ts reads both (their declarations are
// packages/framework/src/server/*-messages.d.ts).
// Start-up latency matters, since Terraform launches a provider several times per command
// (docs/protocol.md, "How often Terraform starts a provider"): generated code is part of the bundle
// and compiled ahead by V8's code cache, where protobufjs' reflection would parse a descriptor at
// start-up and generate every encoder at run time on first use (docs/benchmarks.md). Field names
// keep their proto spelling.
//
// It also compiles the vdb management API (proto/vdb/**) into a JSON descriptor,
// dist/proto/vdb-descriptor.json, loaded by src/wire/vdb-proto.ts (client and emulator).
//
// Usage: node scripts/build-proto.mjs [--vdb-out <file>]
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { codecModule } from './proto-codegen.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(repoRoot, 'proto');

// Together they must match PROTO_FILES in packages/framework/src/server/proto.ts.
const MODULES = [
  {
    out: 'go-plugin-messages.js',
    files: [
      'plugin/grpc_controller.proto',
      'plugin/grpc_stdio.proto',
      'plugin/grpc_broker.proto',
      'grpc/health/v1/health.proto',
    ],
  },
  { out: 'tfplugin6-messages.js', files: ['tfplugin6.proto'] },
];

for (const { out, files } of MODULES) {
  const root = new protobuf.Root();
  // google/protobuf/{timestamp,empty}.proto come from protobufjs' bundled copies.
  root.loadSync(
    files.map((f) => join(protoDir, f)),
    { keepCase: true },
  );
  root.resolveAll();

  const services = Object.fromEntries(
    collectServices(root).map((service) => [
      service.fullName.slice(1),
      service.methodsArray.map((m) => ({
        name: m.name,
        requestType: m.resolvedRequestType.fullName.slice(1),
        responseType: m.resolvedResponseType.fullName.slice(1),
        requestStream: m.requestStream === true,
        responseStream: m.responseStream === true,
      })),
    ]),
  );
  const messagesOut = join(repoRoot, 'dist', 'packages', 'framework', 'src', 'server', out);
  mkdirSync(dirname(messagesOut), { recursive: true });
  writeFileSync(`${messagesOut}.tmp`, codecModule(root, { sources: files, services }));
  renameSync(`${messagesOut}.tmp`, messagesOut);
  process.stderr.write(`build-proto: wrote ${messagesOut}\n`);
}

function collectServices(namespace) {
  return namespace.nestedArray.flatMap((nested) => {
    if (nested instanceof protobuf.Service) return [nested];
    return nested instanceof protobuf.Namespace ? collectServices(nested) : [];
  });
}

function vdbOutputPath(argv) {
  const i = argv.indexOf('--vdb-out');
  if (i >= 0 && argv[i + 1]) return resolve(argv[i + 1]);
  return join(repoRoot, 'dist', 'proto', 'vdb-descriptor.json');
}

// The compiled modules (tsc runs first): the loader the client and emulator use when there is no descriptor
// (every .proto under proto/vdb, imports resolved from proto/), the rules' descriptors and table.
const { descriptorWithoutRules, rulesDescriptorSet, rulesTable, rulesBytes } = await import(
  join(repoRoot, 'dist', 'src', 'wire', 'vdb-rules.js')
);
const { loadFromProtoDir } = await import(join(repoRoot, 'dist', 'src', 'wire', 'vdb-proto.js'));
const vdbRoot = loadFromProtoDir(protoDir);
vdbRoot.resolveAll();

const vdbOut = vdbOutputPath(process.argv.slice(2));
mkdirSync(dirname(vdbOut), { recursive: true });
// The codecs' descriptor, without the rules.
writeFileSync(vdbOut, `${JSON.stringify(descriptorWithoutRules(vdbRoot.toJSON()))}\n`);
process.stderr.write(`build-proto: wrote ${vdbOut}\n`);

// The descriptors with the rules as real options, for the emulator's protovalidate.
const rulesOut = join(dirname(vdbOut), 'vdb-rules.binpb');
writeFileSync(rulesOut, rulesBytes(rulesDescriptorSet(vdbRoot)));
process.stderr.write(`build-proto: wrote ${rulesOut}\n`);

// The table of field rules the provider's plan checks derive from (src/resources/vdb/rules.ts).
const tableOut = join(repoRoot, 'dist', 'src', 'wire', 'vdb-field-rules.js');
const table = rulesTable(vdbRoot);
writeFileSync(
  tableOut,
  '// Generated by scripts/build-proto.mjs from the buf.validate annotations of proto/vdb (src/wire/vdb-rules.ts).\n' +
    `export const VDB_FIELD_RULES = ${JSON.stringify(table.fields, null, 1)};\n` +
    `export const VDB_MESSAGE_RULES = ${JSON.stringify(table.messages, null, 1)};\n` +
    `export const VDB_FIELD_ENUMS = ${JSON.stringify(table.enums)};\n` +
    `export const VDB_FIELD_TYPES = ${JSON.stringify(table.types, null, 1)};\n` +
    `export const VDB_FIELD_SHAPES = ${JSON.stringify(table.shapes)};\n`,
);
process.stderr.write(`build-proto: wrote ${tableOut}\n`);
