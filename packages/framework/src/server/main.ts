// Provider process entry: go-plugin server for tfplugin6 (docs/protocol.md, "The go-plugin layer").
//
// Managed mode (Terraform launched us): magic cookie, protocol negotiation,
// AutoMTLS when PLUGIN_CLIENT_CERT is set, handshake line on stdout, then
// stdout is sealed. Debug mode (--debug): plaintext on loopback and
// TF_REATTACH_PROVIDERS instructions for the user
// (docs/protocol.md, "Debug mode and TF_REATTACH_PROVIDERS").
import {
  debugInstructions,
  guardStdout,
  handshakeLine,
  hasMagicCookie,
  negotiateProtocol,
  notAPluginHostMessage,
} from './handshake.js';
import { createLogger, type Logger } from './log.js';
import { PROVIDER_RPC_NAMES, SERVICE_NAMES, STREAMING_RPC_NAMES, providerRpcPath, type RpcName } from './rpcs.js';
import type { MethodCodecs } from './codecs.js';
import { goPluginCodecs } from './go-plugin-proto.js';
import { generateCertificate } from './tls.js';
import { addHealthService, untilAborted } from './health.js';
import { GrpcServer, Status, StatusError, type CallContext, type MessageCodec } from '../wire/grpc-server.js';

export type { RpcName } from './rpcs.js';

export type ProviderHandler = (request: any, call: { signal: AbortSignal }) => Promise<any>;
export type ProviderHandlers = Partial<Record<RpcName, ProviderHandler>>;
/** A server-streaming RPC (ListResource): the messages to send, in order; `signal` aborts when the client cancels. */
export type ProviderStreamHandler = (request: any, call: { signal: AbortSignal }) => AsyncIterable<any>;
export type ProviderStreamHandlers = Partial<Record<RpcName, ProviderStreamHandler>>;

/** A provider's tfplugin6.Provider service: how its messages cross the wire, and its handlers. */
export interface ProviderService {
  /** Codecs of the tfplugin6.Provider methods, by RPC name (./proto.ts serviceCodecs). */
  readonly codecs: ReadonlyMap<string, MethodCodecs>;
  readonly handlers: ProviderHandlers;
  /** Server-streaming RPCs. */
  readonly streamHandlers?: ProviderStreamHandlers;
  /**
   * Work before the process ends (the host's Shutdown, or the host gone), within the budget given:
   * the engine closes the ephemeral values Terraform left open.
   */
  beforeExit?(budgetMs: number): Promise<void>;
  /**
   * The host went away (Terraform killed): creates on the wire are let finish and written down for
   * the next run; resolves once none is in flight.
   */
  hostGone?(): Promise<void>;
}

export interface ProviderMainOptions {
  /** The provider's type name, the last part of its source address: `kv` of `acme/kv`. */
  name: string;
  /** The namespace of its source address: `acme` of `acme/kv` (the debug line and the logs name it). */
  namespace: string;
  /** The registry of its source address; registry.terraform.io when not given. */
  hostname?: string;
  version: string;
  /** The tfplugin6.Provider RPCs served, unary and server-streaming; the others answer UNIMPLEMENTED. */
  serves: { readonly unary: readonly RpcName[]; readonly streams: readonly RpcName[] };
  /**
   * Makes the service, on the first call that needs it and only then: a process that only shakes
   * hands and answers from `answers` never loads it. The executables keep it (the tfplugin6 messages,
   * the engine, the resources) in a second bundle (scripts/bundle.mjs), which Terraform's schema-only
   * process never reads.
   */
  loadService(): ProviderService;
  /** Answers known without the service (the schema answers built ahead), sent as these bytes. */
  answers?: Partial<Record<RpcName, Buffer>>;
  /** Defaults to process.argv.slice(2). */
  argv?: string[];
}

/**
 * grpc-js limits: Terraform sends whole states/plans as single messages
 * (docs/protocol.md, "Message sizes").
 */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/**
 * After the host's Shutdown the process exits once its answer is written, waiting at most this long
 * for a client that does not read. go-plugin's client waits for the exit (up to 2 s) before it goes
 * on, so every millisecond here is on Terraform's path, once per provider process.
 */
const SHUTDOWN_WRITE_LIMIT_MS = 250;
/**
 * What `beforeExit` may take after the host's Shutdown: go-plugin's client waits 2 s for the process
 * to exit before it kills it.
 */
const BEFORE_EXIT_BUDGET_MS = 1_500;
/** How often the provider checks whether its host went away (watchForOrphaning). */
const ORPHAN_POLL_MS = 1000;
/**
 * What finishing the creates on the wire may take once the host is gone: the 30 s a change on the
 * wire gets after a stop (src/clients/stop.ts), then the lookup after a lost answer (30 s).
 */
const HOST_GONE_BUDGET_MS = 75_000;

export async function runProviderMain(opts: ProviderMainOptions): Promise<void> {
  // The host's pid as we start: read after the handshake instead, a host that died while we made
  // the certificate and listened would already be our new parent, and we would never see it go.
  const hostPid = process.ppid;
  const argv = opts.argv ?? process.argv.slice(2);
  const binary = `terraform-provider-${opts.name}`;
  const has = (flag: string) => argv.includes(`--${flag}`) || argv.includes(`-${flag}`);

  const source = `${opts.hostname ?? 'registry.terraform.io'}/${opts.namespace}/${opts.name}`;
  if (has('version')) {
    process.stdout.write(`${binary} ${opts.version}\n`);
    return;
  }
  // What a release needs to know of the executable it packs (the framework's release command).
  if (has('describe')) {
    const { hostname = 'registry.terraform.io', namespace, name, version } = opts;
    process.stdout.write(`${JSON.stringify({ source, hostname, namespace, name, version })}\n`);
    return;
  }
  const unknown = argv.filter((a) => !['--debug', '-debug'].includes(a));
  if (unknown.length > 0) {
    process.stderr.write(
      `${binary}: unknown argument(s): ${unknown.join(' ')}\nUsage: ${binary} [--version | --describe | --debug]\n`,
    );
    return exitWhenDrained(2);
  }
  const debug = has('debug');
  const log = createLogger(opts.name).child({ tf_provider_addr: source });
  installCrashHandlers(log);
  // If the host goes away mid-write, a broken pipe must not become an uncaught error.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);

  if (!debug) {
    if (!hasMagicCookie()) {
      process.stderr.write(notAPluginHostMessage(binary, opts.version));
      return exitWhenDrained(1);
    }
    const negotiation = negotiateProtocol(binary);
    if (!negotiation.ok) {
      process.stderr.write(`Error: ${negotiation.message}\n`);
      // Shown by Terraform as "Unrecognized remote plugin message: ..."
      // (docs/protocol.md, "Refusing to start").
      process.stdout.write(`${negotiation.message}\n`);
      return exitWhenDrained(1);
    }
    // Ctrl-C reaches us too; Terraform answers it with StopProvider, so we stay up
    // (docs/protocol.md, "Stopping and exiting").
    let interrupts = 0;
    process.on('SIGINT', () => log.info('ignoring SIGINT; Terraform stops providers itself', { count: ++interrupts }));
  }

  logResourceUsageAtExit(log);

  // AutoMTLS only in managed mode with a client certificate (docs/protocol.md, "AutoMTLS");
  // reattach is plaintext (docs/protocol.md, "Plaintext without a client certificate").
  const clientCertPem = debug ? undefined : process.env.PLUGIN_CLIENT_CERT || undefined;
  const cert = clientCertPem ? await generateCertificate() : null;
  if (cert) log.debug('generated AutoMTLS server certificate', { ms: Math.round(cert.ms) });

  const service = loadOnce(opts.loadService);
  let server: GrpcServer;
  try {
    // With a certificate, a client must present one verified against PLUGIN_CLIENT_CERT only.
    server = buildServer(
      opts,
      service,
      log,
      debug,
      cert ? { keyPem: cert.keyPem, certPem: cert.certPem, clientCaPem: clientCertPem! } : undefined,
    );
  } catch (err) {
    process.stderr.write(`${binary}: cannot set up TLS with PLUGIN_CLIENT_CERT: ${errorMessage(err)}\n`);
    process.exit(1);
  }
  // Loopback only, ephemeral port; PLUGIN_MIN_PORT/MAX_PORT are advisory
  // (docs/protocol.md, "The environment"). TCP, not a Unix socket:
  // docs/decisions.md, "The plugin server listens on loopback TCP".
  const port = await server!.listen('127.0.0.1').catch((err: unknown) => {
    process.stderr.write(`${binary}: cannot listen on 127.0.0.1: ${errorMessage(err)}\n`);
    process.exit(1);
  });
  const address = `127.0.0.1:${port}`;

  if (debug) {
    process.stdout.write(debugInstructions(source, address, process.pid));
    const stop = (signal: string) => {
      log.info('debug server stopping', { signal });
      server.close();
      process.exit(0);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    return;
  }

  // The listener is accepting before the line is printed (docs/protocol.md, "The handshake line");
  // after it, stdout is sealed.
  process.stdout.write(handshakeLine(address, cert ? cert.certDer : null));
  guardStdout(log);
  log.info('provider server started', { address, tls: cert !== null, version: opts.version });

  watchForOrphaning(log, service, hostPid);
}

/** The service, made on first use; `loaded` is it once made. */
interface LazyService {
  (): ProviderService;
  readonly loaded: ProviderService | undefined;
}

function loadOnce(load: () => ProviderService): LazyService {
  let loaded: ProviderService | undefined;
  const service = () => {
    loaded ??= load();
    return loaded;
  };
  return Object.defineProperty(service, 'loaded', { get: () => loaded }) as LazyService;
}

/** The service's `beforeExit` (if it was loaded), within its budget; a failure is logged, never thrown. */
async function exitAfter(service: LazyService, log: Logger): Promise<void> {
  const beforeExit = service.loaded?.beforeExit;
  if (!beforeExit) return;
  try {
    await beforeExit.call(service.loaded, BEFORE_EXIT_BUDGET_MS);
  } catch (err) {
    log.warn('work before exit failed', { error: errorMessage(err) });
  }
}

/**
 * The codecs of a provider RPC, taken from the service when the first call needs them. An answered
 * RPC (the schema answers, whose requests are empty messages) needs none for an empty request, and
 * its answer is sent as it is.
 */
function lazyCodecs(
  rpc: RpcName,
  service: LazyService,
  answered: boolean,
): { request: MessageCodec; response: MessageCodec } {
  let codecs: MethodCodecs | undefined;
  const get = () => {
    codecs ??= service().codecs.get(rpc);
    if (!codecs) throw new Error(`the provider service has no codecs for ${rpc}`);
    return codecs;
  };
  return {
    request: {
      decode: (bytes) => (answered && bytes.length === 0 ? {} : get().request.decode(bytes)),
      encode: (value) => get().request.encode(value),
    },
    response: {
      decode: (bytes) => get().response.decode(bytes),
      encode: (value) => (answered && Buffer.isBuffer(value) ? value : get().response.encode(value)),
    },
  };
}

function buildServer(
  opts: ProviderMainOptions,
  service: LazyService,
  log: Logger,
  debug: boolean,
  tls: { keyPem: string; certPem: string; clientCaPem: string } | undefined,
): GrpcServer {
  const server = new GrpcServer({
    maxReceiveMessageBytes: MAX_MESSAGE_BYTES,
    maxSendMessageBytes: MAX_MESSAGE_BYTES,
    ...(tls ? { tls } : {}),
  });

  // Methods left out get the UNIMPLEMENTED answer. The service is made when a call needs it.
  const unary = new Set(opts.serves.unary);
  const streams = new Set(opts.serves.streams);
  for (const rpc of PROVIDER_RPC_NAMES) {
    const answer = opts.answers?.[rpc];
    const path = providerRpcPath(rpc);
    if (STREAMING_RPC_NAMES.has(rpc)) {
      if (!streams.has(rpc)) continue;
      const codecs = lazyCodecs(rpc, service, false);
      const handler: ProviderStreamHandler = (request, call) => {
        const handle = service().streamHandlers?.[rpc];
        if (!handle) throw new Error(`the provider service has no handler for ${rpc}`);
        return handle(request, call);
      };
      server.serverStream(path, codecs.request, codecs.response, serverStreamHandler(rpc, handler, log));
    } else if (answer || unary.has(rpc)) {
      const codecs = lazyCodecs(rpc, service, answer !== undefined);
      const handler: ProviderHandler = answer
        ? async () => answer
        : (request, call) => {
            const handle = service().handlers[rpc];
            if (!handle) throw new Error(`the provider service has no handler for ${rpc}`);
            return handle(request, call);
          };
      server.unary(path, codecs.request, codecs.response, unaryHandler(rpc, handler, log));
    }
  }

  const shutdown = goPluginCodecs.serviceCodecs(SERVICE_NAMES.controller).get('Shutdown')!;
  server.unary(shutdown.path, shutdown.request, shutdown.response, () => {
    log.info('shutdown requested by the plugin host');
    // Answer first, then exit as soon as the answer is written
    // (docs/protocol.md, "Stopping and exiting"). A debug server outlives its clients.
    if (!debug)
      void exitAfter(service, log)
        .then(() => server.written(SHUTDOWN_WRITE_LIMIT_MS))
        .then(() => process.exit(0));
    return {};
  });
  // We never write to stdout/stderr for the host to mirror: hold the stream open, send nothing.
  const stdio = goPluginCodecs.serviceCodecs(SERVICE_NAMES.stdio).get('StreamStdio')!;
  // biome-ignore lint/correctness/useYield: a stream that never sends a message is the point.
  server.serverStream(stdio.path, stdio.request, stdio.response, async function* (_request, call) {
    await untilAborted(call.signal);
  });
  // Providers do not use the broker; accept the stream and keep it open until the host ends it.
  server.drain(goPluginCodecs.serviceCodecs(SERVICE_NAMES.broker).get('StartStream')!.path);
  addHealthService(server, { '': 'SERVING', plugin: 'SERVING' });
  return server;
}

function unaryHandler(
  rpc: RpcName,
  handler: ProviderHandler,
  log: Logger,
): (request: any, call: CallContext) => Promise<any> {
  // Tracing is decided at start-up (TF_LOG*); when it is off no per-call logging work is done.
  const traced = log.enabled('trace');
  const failed = (err: unknown): never => {
    // The engine reports failures as diagnostics; reaching here is a provider bug.
    log.error('RPC handler failed', { tf_rpc: rpc, error: errorMessage(err), stack: errorStack(err) });
    throw new StatusError(Status.INTERNAL, `provider internal error in ${rpc}: ${shorten(errorMessage(err))}`);
  };
  return (request, call) => {
    const started = traced ? performance.now() : 0;
    if (traced) log.trace('received request', { tf_rpc: rpc });
    let pending: Promise<any>;
    try {
      pending = Promise.resolve(handler(request, call));
    } catch (err) {
      pending = Promise.reject(err);
    }
    return pending.then((response) => {
      if (traced) log.trace('served request', { tf_rpc: rpc, ms: Math.round(performance.now() - started) });
      return response ?? {};
    }, failed);
  };
}

/**
 * A server-streaming RPC: each message the handler yields is written as it comes, waiting while the
 * client is behind (HTTP/2 flow control); a cancelled call stops the handler. Like unary handlers,
 * a handler reports failures in its messages; a throw reaching here is a provider bug.
 */
function serverStreamHandler(
  rpc: RpcName,
  handler: ProviderStreamHandler,
  log: Logger,
): (request: any, call: CallContext) => AsyncIterable<any> {
  return async function* (request, call) {
    const started = performance.now();
    log.trace('received request', { tf_rpc: rpc });
    let sent = 0;
    try {
      for await (const message of handler(request, call)) {
        if (call.signal.aborted) break;
        sent++;
        yield message;
      }
    } catch (err) {
      log.error('RPC handler failed', { tf_rpc: rpc, error: errorMessage(err), stack: errorStack(err) });
      throw new StatusError(Status.INTERNAL, `provider internal error in ${rpc}: ${shorten(errorMessage(err))}`);
    }
    log.trace('served request', { tf_rpc: rpc, messages: sent, ms: Math.round(performance.now() - started) });
  };
}

/**
 * Terraform does not always kill us when it dies: exit once our parent changes
 * (docs/protocol.md, "Stopping and exiting").
 */
function watchForOrphaning(log: Logger, service: LazyService, hostPid: number): void {
  const check = () => {
    if (process.ppid === hostPid) return;
    clearInterval(timer);
    log.warn('plugin host exited; shutting down', { old_ppid: hostPid, ppid: process.ppid });
    void settleWithoutHost(service, log)
      .then(() => exitAfter(service, log))
      .then(() => process.exit(0));
  };
  const timer = setInterval(check, ORPHAN_POLL_MS).unref();
  check(); // the host may have gone while we started
}

/** The service's `hostGone` (if it was loaded), within its budget; a failure is logged, never thrown. */
async function settleWithoutHost(service: LazyService, log: Logger): Promise<void> {
  const hostGone = service.loaded?.hostGone;
  if (!hostGone) return;
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, HOST_GONE_BUDGET_MS);
  });
  try {
    await Promise.race([hostGone.call(service.loaded), budget]);
  } catch (err) {
    log.warn('finishing the creates in flight failed', { error: errorMessage(err) });
  } finally {
    clearTimeout(timer);
  }
}

function installCrashHandlers(log: Logger): void {
  // A stray rejected promise must not take the provider down mid-apply.
  process.on('unhandledRejection', (reason) => {
    log.error('unhandled promise rejection', { error: errorMessage(reason), stack: errorStack(reason) });
  });
  // A synchronous throw outside any handler leaves unknown state: crash like a Go
  // panic, whose "panic: " stderr lines Terraform reports as a plugin crash
  // (docs/protocol.md, "Crashes").
  process.on('uncaughtException', (err) => {
    process.stderr.write(`panic: ${errorMessage(err)}\n\n${errorStack(err) ?? ''}\n`);
    process.exit(2);
  });
}

/**
 * Our own CPU time and peak memory, logged as the process ends (however it ends, short of a kill),
 * so a benchmark can read them from TF_LOG_PATH. stderr is a pipe, written synchronously on exit.
 */
function logResourceUsageAtExit(log: Logger): void {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    log.debug('provider resource usage', {
      cpu_user_ms: Math.round(cpu.user / 1000),
      cpu_system_ms: Math.round(cpu.system / 1000),
      peak_rss_bytes: process.resourceUsage().maxRSS * 1024, // maxRSS is in KiB
    });
  });
}

/** Ends the process once stdout/stderr are flushed (pipes are asynchronous on some platforms). */
function exitWhenDrained(code: number): void {
  process.exitCode = code; // nothing else keeps the event loop alive at this point
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function errorStack(err: unknown): string | undefined {
  return err instanceof Error ? err.stack : undefined;
}

function shorten(text: string, max = 200): string {
  const firstLine = text.split('\n')[0] ?? '';
  return firstLine.length > max ? `${firstLine.slice(0, max - 1)}…` : firstLine;
}
