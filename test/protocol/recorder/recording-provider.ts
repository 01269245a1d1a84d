/**
 * A provider that records what Terraform sends: Terraform starts it as `terraform-provider-<name>`
 * (test/protocol/record-fixtures.ts points dev_overrides at a launcher of it), it shakes hands as a
 * provider does (our go-plugin server, packages/framework/src/server/main.ts), starts the real executable in bin/ as
 * Terraform would (src/tfclient/launch.ts) and passes every tfplugin6 call through, bytes unchanged,
 * writing each request and its answer to a file of its own in $KEEL_RECORD_DIR. Test-side only.
 *
 * Usage (by Terraform): node recording-provider.js <sec|vdb>
 */
import { appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  runProviderMain,
  type ProviderHandlers,
  type ProviderStreamHandlers,
} from '../../../packages/framework/src/server/main.js';
import type { MethodCodecs } from '../../../packages/framework/src/server/codecs.js';
import {
  PROVIDER_RPC_NAMES,
  PROVIDER_SERVICE_RPCS,
  STREAMING_RPC_NAMES,
  providerRpcPath,
  type RpcName,
} from '../../../packages/framework/src/server/rpcs.js';
import { launchProvider, type LaunchedProvider } from '../../../src/tfclient/launch.js';

/** One recorded call: the RPC, the request's bytes, the answer's (each message of a stream). */
export interface RecordedCall {
  readonly rpc: RpcName;
  readonly request: string;
  readonly response: string | string[];
}

const REPO_ROOT = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const name = process.argv[2];
const dir = process.env.KEEL_RECORD_DIR;
if ((name !== 'sec' && name !== 'vdb') || !dir) {
  process.stderr.write('usage: KEEL_RECORD_DIR=<dir> node recording-provider.js <sec|vdb>\n');
  process.exit(2);
}
// One file per process, named so that the files sort in the order the processes started.
const file = join(dir, `${name}-${process.hrtime.bigint()}-${process.pid}.jsonl`);
const record = (call: RecordedCall) => appendFileSync(file, `${JSON.stringify(call)}\n`);

let real: Promise<LaunchedProvider> | undefined;
/** The real provider, started at the first call (with Terraform's environment, as Terraform starts it). */
const provider = () => {
  real ??= launchProvider(join(REPO_ROOT, 'bin', `terraform-provider-${name}`), {
    env: { KEEL_RECORD_DIR: undefined },
  });
  return real;
};

const passBytes = { decode: (bytes: Buffer) => bytes, encode: (value: unknown) => value as Buffer };
const codecs = new Map<string, MethodCodecs>(
  PROVIDER_RPC_NAMES.map((rpc) => [
    rpc,
    {
      name: rpc,
      path: providerRpcPath(rpc),
      requestStream: false,
      responseStream: STREAMING_RPC_NAMES.has(rpc),
      request: passBytes,
      response: passBytes,
    },
  ]),
);
const base64 = (bytes: Buffer) => bytes.toString('base64');
const handlers: ProviderHandlers = {};
const streamHandlers: ProviderStreamHandlers = {};
for (const rpc of PROVIDER_RPC_NAMES) {
  if (STREAMING_RPC_NAMES.has(rpc)) {
    streamHandlers[rpc] = async function* (request: Buffer) {
      const messages: Buffer[] = [];
      try {
        for await (const message of (await provider()).serverStreamRaw(rpc, request)) {
          messages.push(message as Buffer);
          yield message;
        }
      } finally {
        record({ rpc, request: base64(request), response: messages.map(base64) });
      }
    };
  } else {
    handlers[rpc] = async (request: Buffer) => {
      const response = await (await provider()).callRaw(rpc, request);
      record({ rpc, request: base64(request), response: base64(response) });
      return response;
    };
  }
}

await runProviderMain({
  namespace: 'keel',
  name,
  version: 'recording',
  argv: process.argv.slice(3),
  // What the real providers serve, so that the others answer UNIMPLEMENTED as theirs do.
  serves: PROVIDER_SERVICE_RPCS,
  loadService: () => ({
    codecs,
    handlers,
    streamHandlers,
    async beforeExit() {
      if (real) await (await real).shutdown();
    },
  }),
});
