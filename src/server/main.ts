// Provider process entry: go-plugin server for tfplugin6 (protocol.md §1).
//
// Managed mode (Terraform launched us): magic cookie, protocol negotiation,
// AutoMTLS when PLUGIN_CLIENT_CERT is set, handshake line on stdout, then
// stdout is sealed. Debug mode (--debug): plaintext on loopback and
// TF_REATTACH_PROVIDERS instructions for the user (§1.8).
import * as grpc from '@grpc/grpc-js';
import {
  debugInstructions,
  guardStdout,
  handshakeLine,
  hasMagicCookie,
  negotiateProtocol,
  notAPluginHostMessage,
} from './handshake.js';
import { createLogger, type Logger } from './log.js';
import { PROVIDER_RPC_NAMES, SERVICE_NAMES, STREAMING_RPC_NAMES, serviceDefinition, type RpcName } from './proto.js';
import { generateCertificate } from './tls.js';
import { addHealthService } from './health.js';

export type { RpcName } from './proto.js';

export type ProviderHandler = (request: any, call: { signal: AbortSignal }) => Promise<any>;
export type ProviderHandlers = Partial<Record<RpcName, ProviderHandler>>;
/** A server-streaming RPC (ListResource): the messages to send, in order; `signal` aborts when the client cancels. */
export type ProviderStreamHandler = (request: any, call: { signal: AbortSignal }) => AsyncIterable<any>;
export type ProviderStreamHandlers = Partial<Record<RpcName, ProviderStreamHandler>>;

export interface ProviderMainOptions {
  /** Provider type name: "sec" or "vdb". */
  name: string;
  version: string;
  handlers: ProviderHandlers;
  /** Server-streaming RPCs; the others of STREAMING_RPC_NAMES stay UNIMPLEMENTED. */
  streamHandlers?: ProviderStreamHandlers;
  /** Defaults to process.argv.slice(2). */
  argv?: string[];
  /**
   * Work before the process ends (the host's Shutdown, or the host gone), within the budget given:
   * the engine closes the ephemeral values Terraform left open.
   */
  beforeExit?: (budgetMs: number) => Promise<void>;
}

/** grpc-js limits: Terraform sends whole states/plans as single messages (§1.5). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const SHUTDOWN_EXIT_DELAY_MS = 10;
/**
 * What `beforeExit` may take after the host's Shutdown: go-plugin's client waits 2 s for the process
 * to exit before it kills it.
 */
const BEFORE_EXIT_BUDGET_MS = 1_500;
const ORPHAN_POLL_MS = 1000;

export async function runProviderMain(opts: ProviderMainOptions): Promise<void> {
  const argv = opts.argv ?? process.argv.slice(2);
  const binary = `terraform-provider-${opts.name}`;
  const has = (flag: string) => argv.includes(`--${flag}`) || argv.includes(`-${flag}`);

  if (has('version')) {
    process.stdout.write(`${binary} ${opts.version}\n`);
    return;
  }
  const unknown = argv.filter((a) => !['--debug', '-debug'].includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`${binary}: unknown argument(s): ${unknown.join(' ')}\nUsage: ${binary} [--version | --debug]\n`);
    return exitWhenDrained(2);
  }
  const debug = has('debug');
  const log = createLogger(opts.name).child({ tf_provider_addr: `registry.terraform.io/keel/${opts.name}` });
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
      // Shown by Terraform as "Unrecognized remote plugin message: ..." (§1.3).
      process.stdout.write(`${negotiation.message}\n`);
      return exitWhenDrained(1);
    }
    // Ctrl-C reaches us too; Terraform answers it with StopProvider, so we stay up (§1.7).
    let interrupts = 0;
    process.on('SIGINT', () => log.info('ignoring SIGINT; Terraform stops providers itself', { count: ++interrupts }));
  }

  logResourceUsageAtExit(log);

  // AutoMTLS only in managed mode with a client certificate (§1.4); reattach is plaintext (§1.8).
  const clientCertPem = debug ? undefined : process.env.PLUGIN_CLIENT_CERT || undefined;
  const cert = clientCertPem ? await generateCertificate() : null;
  if (cert) log.debug('generated AutoMTLS server certificate', { ms: Math.round(cert.ms) });

  const server = buildServer(opts, log, debug);
  let credentials: grpc.ServerCredentials;
  try {
    credentials = cert
      ? grpc.ServerCredentials.createSsl(
          Buffer.from(clientCertPem!),
          [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
          true, // require a client certificate, verified against PLUGIN_CLIENT_CERT only
        )
      : grpc.ServerCredentials.createInsecure();
  } catch (err) {
    process.stderr.write(`${binary}: cannot set up TLS with PLUGIN_CLIENT_CERT: ${errorMessage(err)}\n`);
    process.exit(1);
  }
  const port = await bindLoopback(server, credentials!).catch((err: unknown) => {
    process.stderr.write(`${binary}: cannot listen on 127.0.0.1: ${errorMessage(err)}\n`);
    process.exit(1);
  });
  const address = `127.0.0.1:${port}`;

  if (debug) {
    process.stdout.write(debugInstructions(`registry.terraform.io/keel/${opts.name}`, address, process.pid));
    const stop = (signal: string) => {
      log.info('debug server stopping', { signal });
      server.forceShutdown();
      process.exit(0);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    return;
  }

  // The listener is accepting before the line is printed (§1.3); after it, stdout is sealed.
  process.stdout.write(handshakeLine(address, cert ? cert.certDer : null));
  guardStdout(log);
  log.info('provider server started', { address, tls: cert !== null, version: opts.version });

  watchForOrphaning(log, opts);
}

/** The options' `beforeExit`, within its budget; a failure is logged, never thrown. */
async function exitAfter(opts: ProviderMainOptions, log: Logger): Promise<void> {
  if (!opts.beforeExit) return;
  try {
    await opts.beforeExit(BEFORE_EXIT_BUDGET_MS);
  } catch (err) {
    log.warn('work before exit failed', { error: errorMessage(err) });
  }
}

function buildServer(opts: ProviderMainOptions, log: Logger, debug: boolean): grpc.Server {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });

  const provider: grpc.UntypedServiceImplementation = {};
  const definition = serviceDefinition(SERVICE_NAMES.provider);
  for (const rpc of PROVIDER_RPC_NAMES) {
    const handler = opts.handlers[rpc];
    const streamHandler = opts.streamHandlers?.[rpc];
    // Methods left out get grpc-js's default UNIMPLEMENTED answer.
    if (handler && !STREAMING_RPC_NAMES.has(rpc)) provider[rpc] = unaryHandler(rpc, handler, log);
    else if (streamHandler && definition[rpc]!.responseStream && !definition[rpc]!.requestStream) provider[rpc] = serverStreamHandler(rpc, streamHandler, log);
  }
  server.addService(definition, provider);

  server.addService(serviceDefinition(SERVICE_NAMES.controller), {
    Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      log.info('shutdown requested by the plugin host');
      callback(null, {});
      // Answer first, then exit promptly (§1.7). A debug server outlives its clients.
      if (!debug) void exitAfter(opts, log).then(() => setTimeout(() => process.exit(0), SHUTDOWN_EXIT_DELAY_MS));
    },
  });
  server.addService(serviceDefinition(SERVICE_NAMES.stdio), {
    // We never write to stdout/stderr for the host to mirror: hold the stream open, send nothing.
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      call.on('error', () => undefined);
    },
  });
  server.addService(serviceDefinition(SERVICE_NAMES.broker), {
    // Providers do not use the broker; accept the stream and keep it open.
    StartStream: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      call.on('data', () => undefined);
      call.on('error', () => undefined);
      call.on('end', () => call.end());
    },
  });
  addHealthService(server, { '': 'SERVING', plugin: 'SERVING' });
  return server;
}

function unaryHandler(rpc: RpcName, handler: ProviderHandler, log: Logger): grpc.handleUnaryCall<any, any> {
  return (call, callback) => {
    const controller = new AbortController();
    call.on('cancelled', () => controller.abort(new Error(`${rpc} was cancelled by the client`)));
    const started = performance.now();
    log.trace('received request', { tf_rpc: rpc });
    let pending: Promise<any>;
    try {
      pending = Promise.resolve(handler(call.request, { signal: controller.signal }));
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending.then(
      (response) => {
        log.trace('served request', { tf_rpc: rpc, ms: Math.round(performance.now() - started) });
        callback(null, response ?? {});
      },
      (err: unknown) => {
        // The engine reports failures as diagnostics; reaching here is a provider bug.
        log.error('RPC handler failed', { tf_rpc: rpc, error: errorMessage(err), stack: errorStack(err) });
        callback({ code: grpc.status.INTERNAL, details: `provider internal error in ${rpc}: ${shorten(errorMessage(err))}` });
      },
    );
  };
}

/**
 * A server-streaming RPC: each message the handler yields is written as it comes, waiting while the
 * client is behind (HTTP/2 flow control); a cancelled call stops the handler. Like unary handlers,
 * a handler reports failures in its messages; a throw reaching here is a provider bug.
 */
function serverStreamHandler(rpc: RpcName, handler: ProviderStreamHandler, log: Logger): grpc.handleServerStreamingCall<any, any> {
  return (call) => {
    const controller = new AbortController();
    call.on('cancelled', () => controller.abort(new Error(`${rpc} was cancelled by the client`)));
    const started = performance.now();
    log.trace('received request', { tf_rpc: rpc });
    let sent = 0;
    void (async () => {
      for await (const message of handler(call.request, { signal: controller.signal })) {
        if (controller.signal.aborted) break;
        sent++;
        if (!call.write(message)) await new Promise<void>((resolve) => {
          const done = () => {
            call.off('drain', done);
            controller.signal.removeEventListener('abort', done);
            resolve();
          };
          call.on('drain', done);
          controller.signal.addEventListener('abort', done);
        });
      }
    })().then(
      () => {
        log.trace('served request', { tf_rpc: rpc, messages: sent, ms: Math.round(performance.now() - started) });
        if (!controller.signal.aborted) call.end();
      },
      (err: unknown) => {
        log.error('RPC handler failed', { tf_rpc: rpc, error: errorMessage(err), stack: errorStack(err) });
        // grpc-js turns an 'error' event on the call into the status it ends the stream with.
        if (!controller.signal.aborted) call.emit('error', { code: grpc.status.INTERNAL, details: `provider internal error in ${rpc}: ${shorten(errorMessage(err))}` });
      },
    );
  };
}

function bindLoopback(server: grpc.Server, credentials: grpc.ServerCredentials): Promise<number> {
  // Loopback only, ephemeral port; PLUGIN_MIN_PORT/MAX_PORT are advisory (§1.2).
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', credentials, (err, port) => (err ? reject(err) : resolve(port)));
  });
}

/** Terraform does not always kill us when it dies: exit once our parent changes (§1.7). */
function watchForOrphaning(log: Logger, opts: ProviderMainOptions): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      log.warn('plugin host exited; shutting down', { old_ppid: parent, ppid: process.ppid });
      void exitAfter(opts, log).then(() => process.exit(0));
    }
  }, ORPHAN_POLL_MS).unref();
}

function installCrashHandlers(log: Logger): void {
  // A stray rejected promise must not take the provider down mid-apply.
  process.on('unhandledRejection', (reason) => {
    log.error('unhandled promise rejection', { error: errorMessage(reason), stack: errorStack(reason) });
  });
  // A synchronous throw outside any handler leaves unknown state: crash like a Go
  // panic, whose "panic: " stderr lines Terraform reports as a plugin crash (§1.6).
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
