// The Terraform side of go-plugin (docs/protocol.md, "The go-plugin layer"):
// launch a provider binary the way Terraform does, check its handshake line as
// go-plugin's client does, and talk tfplugin6 over mutual TLS. Used by tests,
// the demo and benchmarks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../packages/framework/src/server/handshake.js';
import { SERVICE_NAMES, STREAMING_RPC_NAMES, type RpcName } from '../../packages/framework/src/server/proto.js';
import { serviceDefinition } from './service-definitions.js';
import { derToPem, generateCertificate, parseHandshakeCertField } from '../../packages/framework/src/server/tls.js';

export interface LaunchOptions {
  /** Extra environment, applied last (so tests can also blank the defaults); undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /**
   * Arguments for the executable; Terraform passes none
   * (docs/protocol.md, "Starting the provider"), the benchmark's floor server needs its script.
   */
  args?: string[];
  /** PLUGIN_PROTOCOL_VERSIONS; Terraform sends "5,6". */
  protocolVersions?: string;
  /** false = no AutoMTLS (like TF_DISABLE_PLUGIN_TLS). Default true. */
  tls?: boolean;
  /** go-plugin's StartTimeout: 1 minute. */
  startTimeoutMs?: number;
  /**
   * The directory the provider starts in, as Terraform's working directory (the provider keeps the
   * records of its creates beneath it). Default: a new empty directory, removed once the process has
   * exited, so that each launch is a fresh runner that remembers no earlier run.
   */
  cwd?: string;
  /**
   * How long shutdown() waits for the process to exit before it kills it: go-plugin's 2 s, unless the
   * provider runs under an emulator (qemu, Wine), where exiting takes longer.
   */
  killGraceMs?: number;
}

export interface Handshake {
  core: number;
  app: number;
  network: 'tcp' | 'unix';
  address: string;
  protocol: 'grpc';
  /** The server certificate (DER), or null when the plugin serves plaintext. */
  certDer: Buffer | null;
  line: string;
}

export interface ClientIdentity {
  keyPem: string;
  certPem: string;
}

export interface ProviderConnection {
  /** Unary tfplugin6.Provider RPC with plain-object request/response (packages/framework/src/server/proto.ts). */
  call(rpc: RpcName, request?: unknown, options?: { deadlineMs?: number }): Promise<any>;
  /** A unary tfplugin6.Provider RPC on protobuf bytes both ways (timing the server without our decoding). */
  callRaw(rpc: RpcName, request: Buffer, options?: { deadlineMs?: number }): Promise<Buffer>;
  /** A server-streaming tfplugin6.Provider RPC (ListResource, ReadStateBytes, InvokeAction). */
  serverStream(rpc: RpcName, request?: unknown): grpc.ClientReadableStream<any>;
  /**
   * A server-streaming tfplugin6.Provider RPC on protobuf bytes both ways (replaying recorded requests);
   * `deadlineMs` sends a grpc-timeout.
   */
  serverStreamRaw(rpc: RpcName, request: Buffer, options?: { deadlineMs?: number }): grpc.ClientReadableStream<Buffer>;
  /** grpc.health.v1.Health/Check; resolves to the status name, e.g. "SERVING". */
  health(service?: string): Promise<string>;
  /** plugin.GRPCController/Shutdown. */
  shutdownRpc(): Promise<void>;
  /** Opens plugin.GRPCStdio/StreamStdio as Terraform does right after connecting. */
  openStdio(onData?: (chunk: { channel: number; data: Buffer }) => void): grpc.ClientReadableStream<any>;
  close(): void;
}

export interface ExitInfo {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

export interface LaunchedProvider extends ProviderConnection {
  pid: number;
  handshake: Handshake;
  /** The client certificate the provider trusts (null without AutoMTLS), for extra raw connections. */
  clientIdentity: ClientIdentity | null;
  /** stderr, line by line, as captured so far. */
  stderrLines: string[];
  /** Anything written to stdout after the handshake line (go-plugin drains and discards it). */
  extraStdout: string[];
  /** Resolves when the process has exited. */
  exited: Promise<ExitInfo>;
  /** go-plugin Kill: Shutdown RPC, close the channel, wait ≤ 2 s, then SIGKILL. */
  shutdown(): Promise<ExitInfo & { ms: number }>;
}

const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const KILL_GRACE_MS = 2000;

/** Validates the handshake line like go-plugin's client.Start (error texts follow it). */
export function parseHandshake(rawLine: string, offeredVersions: number[]): Handshake {
  const line = rawLine.trim();
  const parts = line.split('|');
  if (parts.length < 4) throw new Error(`Unrecognized remote plugin message: ${line}`);
  const core = Number.parseInt(parts[0]!, 10);
  if (core !== 1)
    throw new Error(`incompatible core API version with plugin. Plugin version: ${parts[0]}, Core version: 1`);
  const app = Number.parseInt(parts[1]!, 10);
  if (!offeredVersions.includes(app)) {
    throw new Error(
      `Incompatible API version with plugin. Plugin version: ${parts[1]}, Client versions: ` +
        `[${offeredVersions.join(' ')}]`,
    );
  }
  if (app !== 6) throw new Error(`plugin chose protocol ${app}; this client speaks tfplugin6 only`);
  const network = parts[2]!;
  if (network !== 'tcp' && network !== 'unix') throw new Error(`unknown address type: ${parts[3]}`);
  const protocol = parts[4] ?? 'netrpc';
  if (protocol !== 'grpc') throw new Error(`unsupported plugin protocol "${protocol}". Supported: [grpc]`);
  let certDer: Buffer | null = null;
  const certField = parts[5] ?? '';
  if (certField.length > 50) {
    try {
      certDer = parseHandshakeCertField(certField);
      new X509Certificate(certDer); // throws on anything but a DER certificate
    } catch (err) {
      throw new Error(`error parsing server cert: ${(err as Error).message}`);
    }
  }
  return { core, app, network, address: parts[3]!, protocol: 'grpc', certDer, line };
}

/** A gRPC connection to a provider; certDer null = plaintext (reattach/debug). */
export function connect(
  address: string,
  certDer: Buffer | null,
  client: ClientIdentity | null,
  network = 'tcp',
): ProviderConnection {
  const target = network === 'unix' ? `unix:${address}` : address;
  const credentials = certDer
    ? grpc.credentials.createSsl(
        // the handshake's cert is the only trust root (docs/protocol.md, "The server certificate")
        Buffer.from(derToPem(certDer)),
        client ? Buffer.from(client.keyPem) : null,
        client ? Buffer.from(client.certPem) : null,
      )
    : grpc.credentials.createInsecure();
  const channel = new grpc.Client(target, credentials, {
    'grpc.ssl_target_name_override': 'localhost',
    'grpc.default_authority': 'localhost',
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const provider = serviceDefinition(SERVICE_NAMES.provider);
  const controller = serviceDefinition(SERVICE_NAMES.controller);
  const stdio = serviceDefinition(SERVICE_NAMES.stdio);

  const unary = (def: grpc.MethodDefinition<any, any>, request: unknown, deadlineMs?: number): Promise<any> =>
    new Promise((resolve, reject) => {
      const options: grpc.CallOptions = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
      channel.makeUnaryRequest(
        def.path,
        def.requestSerialize,
        def.responseDeserialize,
        request ?? {},
        options,
        (err, res) => (err ? reject(err) : resolve(res)),
      );
    });

  return {
    callRaw(rpc, request, options) {
      const identity = (bytes: Buffer) => bytes;
      return unary(
        {
          path: `/${SERVICE_NAMES.provider}/${rpc}`,
          requestSerialize: identity,
          responseDeserialize: identity,
        } as grpc.MethodDefinition<Buffer, Buffer>,
        request,
        options?.deadlineMs,
      );
    },
    call(rpc, request, options) {
      if (STREAMING_RPC_NAMES.has(rpc))
        return Promise.reject(new Error(`${rpc} is a streaming RPC; call() is unary only`));
      return unary(provider[rpc]!, request, options?.deadlineMs);
    },
    serverStream(rpc, request) {
      const def = provider[rpc]!;
      if (!def.responseStream || def.requestStream) throw new Error(`${rpc} is not a server-streaming RPC`);
      return channel.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, request ?? {});
    },
    serverStreamRaw(rpc, request, options) {
      const identity = (bytes: Buffer) => bytes;
      const callOptions: grpc.CallOptions = options?.deadlineMs ? { deadline: Date.now() + options.deadlineMs } : {};
      return channel.makeServerStreamRequest(
        `/${SERVICE_NAMES.provider}/${rpc}`,
        identity,
        identity,
        request,
        new grpc.Metadata(),
        callOptions,
      );
    },
    async health(serviceName = 'plugin') {
      const res = await unary(healthService.Check as grpc.MethodDefinition<any, any>, { service: serviceName });
      return String(res.status);
    },
    async shutdownRpc() {
      await unary(controller.Shutdown!, {});
    },
    openStdio(onData) {
      const def = stdio.StreamStdio!;
      const stream = channel.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, {});
      stream.on('data', (chunk) => onData?.(chunk));
      stream.on('error', () => undefined); // Terraform tolerates a missing/broken stdio service
      return stream;
    },
    close() {
      channel.close();
    },
  };
}

function waitForHandshakeLine(
  child: ReturnType<typeof spawn>,
  timeoutMs: number,
  onExtra: (text: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error('timeout while waiting for plugin to start'))),
      timeoutMs,
    );
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      if (done) return onExtra(text);
      buffered += text;
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      const rest = buffered.slice(nl + 1);
      finish(() => resolve(buffered.slice(0, nl)));
      if (rest) onExtra(rest);
    });
    // Like bufio.Scanner, a last line without newline still counts.
    child.stdout!.on('end', () =>
      finish(() => (buffered ? resolve(buffered) : reject(new Error('plugin exited before we could connect')))),
    );
    child.on('error', (err) => finish(() => reject(err)));
  });
}

export async function launchProvider(executablePath: string, opts: LaunchOptions = {}): Promise<LaunchedProvider> {
  const useTls = opts.tls ?? true;
  const identity = useTls ? await generateCertificate() : null;
  const protocolVersions = opts.protocolVersions ?? '5,6';
  const env: Record<string, string | undefined> = {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: protocolVersions,
    PLUGIN_MIN_PORT: '10000',
    PLUGIN_MAX_PORT: '25000',
    PLUGIN_CLIENT_CERT: identity?.certPem,
    ...opts.env,
  };
  if (!identity && !opts.env?.PLUGIN_CLIENT_CERT) delete env.PLUGIN_CLIENT_CERT;

  // No arguments, no shell, stdout/stderr as pipes (docs/protocol.md, "Starting the provider").
  const cwd = opts.cwd ?? mkdtempSync(join(tmpdir(), 'keel-provider-'));
  const child = spawn(executablePath, opts.args ?? [], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  if (opts.cwd === undefined) child.once('close', () => rmSync(cwd, { recursive: true, force: true }));
  const stderrLines: string[] = [];
  const extraStdout: string[] = [];
  let partial = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    stderrLines.push(...lines);
  });
  child.stderr!.on('end', () => partial && stderrLines.push(partial));
  const exited = new Promise<ExitInfo>((resolve) => {
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal }));
    // A failed spawn (e.g. ENOENT) may never emit 'close'.
    child.on('error', () => child.pid === undefined && resolve({ exitCode: null, signal: null }));
  });

  let handshake: Handshake;
  try {
    const line = await waitForHandshakeLine(child, opts.startTimeoutMs ?? 60_000, (t) => extraStdout.push(t));
    const offered = protocolVersions
      .split(',')
      .map((v) => Number.parseInt(v, 10))
      .filter(Number.isInteger);
    handshake = parseHandshake(line, offered);
    if (identity && !handshake.certDer)
      throw new Error('plugin sent no server certificate although AutoMTLS was requested');
  } catch (err) {
    child.kill('SIGKILL');
    const { exitCode, signal } = await exited;
    const tail = stderrLines.slice(-20).join('\n');
    throw new Error(
      `launching ${executablePath}: ${(err as Error).message} (exit code ${exitCode}, signal ${signal})` +
        (tail ? `\nstderr:\n${tail}` : ''),
    );
  }

  const connection = connect(handshake.address, handshake.certDer, identity, handshake.network);
  connection.openStdio(); // Terraform opens it at once and logs whatever arrives.

  const shutdown = async () => {
    const started = performance.now();
    await connection.shutdownRpc().catch(() => undefined);
    connection.close();
    const grace = opts.killGraceMs ?? KILL_GRACE_MS;
    const kill = setTimeout(() => child.kill('SIGKILL'), grace);
    // go-plugin would wait forever for the pipes; we say why instead.
    let giveUp: NodeJS.Timeout | undefined;
    const pipesHeld = new Promise<never>((_, reject) => {
      giveUp = setTimeout(
        () =>
          reject(
            new Error(
              'provider exited but its stdout/stderr stay open: a grandchild holds them (use exec in wrappers)',
            ),
          ),
        grace + 3000,
      );
    });
    try {
      const info = await Promise.race([exited, pipesHeld]);
      return { ...info, ms: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(kill);
      clearTimeout(giveUp);
    }
  };

  return {
    ...connection,
    pid: child.pid!,
    handshake,
    clientIdentity: identity,
    stderrLines,
    extraStdout,
    exited,
    shutdown,
  };
}
