/**
 * Runs a released provider as Terraform would, for what the release learns only from it running: its
 * schema (the reference pages) and V8's code caches of its bundles, which the loader writes as the
 * process exits. go-plugin's client side, as small as that needs: the handshake line, mutual TLS with
 * the certificate it names, unary gRPC over node:http2 (HTTP/2 and TLS parsed by Node), and the
 * controller's Shutdown.
 */
import { spawn } from 'node:child_process';
import { connect as connectHttp2, constants as h2 } from 'node:http2';
import { connect as connectTls } from 'node:tls';
import { connect as connectNet } from 'node:net';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../server/handshake.js';
import { decodeMessage, encodeMessage, rpcTypes } from '../server/proto.js';
import { derToPem, generateCertificate, parseHandshakeCertField } from '../server/tls.js';
import { schemaFromProto } from '../schema/schema-from-proto.js';
import type { Schema, SchemaBlock } from '../schema/block.js';
import { impliedType } from '../schema/block.js';
import { encodeMsgpack } from '../schema/msgpack.js';
import type { ObjectValue } from '../schema/value.js';

export interface WarmUpOptions {
  /** The environment the provider runs with (its settings for a configure that reaches nothing). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether to configure the provider with every setting null (and its `env`), as Terraform does first. */
  readonly configure: boolean;
  /** How long the provider may take to start and to exit (an emulator such as qemu or Wine is slow). */
  readonly timeoutMs?: number;
}

/** What a warm-up learnt: the provider's schema as it answers it, and the whole response for pages. */
export interface WarmUpResult {
  readonly provider: Schema;
  readonly response: Record<string, any>;
  readonly stderr: string;
}

const PROVIDER_SERVICE = 'tfplugin6.Provider';

/** Starts `command`, asks what Terraform asks first, shuts it down as go-plugin does, and waits for it to exit. */
export async function warmUp(
  command: { readonly file: string; readonly args: readonly string[] },
  options: WarmUpOptions,
): Promise<WarmUpResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const client = await generateCertificate();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env }))
    if (value !== undefined) env[name] = value;
  Object.assign(env, {
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: '6',
    PLUGIN_CLIENT_CERT: client.certPem,
    PLUGIN_MIN_PORT: '10000',
    PLUGIN_MAX_PORT: '25000',
  });
  const child = spawn(command.file, [...command.args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const failed = (why: string) => new Error(`${why}${stderr ? `; its stderr:\n${stderr.trim()}` : ''}`);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs * 2);
  try {
    const line = await handshakeLine(child.stdout, exited, timeoutMs).catch((error: Error) => {
      throw failed(error.message);
    });
    const [, , network, address, , certField] = line.trim().split('|');
    if (!network || !address || !certField) throw failed(`not a go-plugin handshake line: ${JSON.stringify(line)}`);
    const serverPem = derToPem(parseHandshakeCertField(certField));
    const session = connectHttp2('https://localhost', {
      createConnection: () =>
        connectTls({
          socket: network === 'unix' ? connectNet(address) : connectNet(Number(address.split(':').pop()), '127.0.0.1'),
          ca: serverPem,
          cert: client.certPem,
          key: client.keyPem,
          servername: 'localhost',
          ALPNProtocols: ['h2'],
        }),
    });
    session.on('error', () => undefined);
    try {
      const call = (service: string, method: string, request: Buffer) => unary(session, service, method, request);
      await call('grpc.health.v1.Health', 'Check', Buffer.alloc(0));
      const types = rpcTypes(PROVIDER_SERVICE, 'GetProviderSchema');
      const answer = await call(PROVIDER_SERVICE, 'GetProviderSchema', Buffer.alloc(0));
      const response = decodeMessage(types.response, answer) as Record<string, any>;
      const provider = schemaFromProto(response.provider, 'the provider');
      await call(PROVIDER_SERVICE, 'GetMetadata', Buffer.alloc(0));
      if (options.configure) {
        const block = provider.block;
        const config = { msgpack: encodeMsgpack(impliedType(block), nullConfig(block)) };
        const request = encodeMessage(rpcTypes(PROVIDER_SERVICE, 'ConfigureProvider').request, {
          terraform_version: '1.15.5',
          config,
        });
        const configured = decodeMessage(
          rpcTypes(PROVIDER_SERVICE, 'ConfigureProvider').response,
          await call(PROVIDER_SERVICE, 'ConfigureProvider', request),
        ) as { diagnostics?: { summary?: string; detail?: string }[] };
        const problems = configured.diagnostics ?? [];
        if (problems.length > 0)
          throw failed(`it could not be configured: ${problems.map((d) => `${d.summary}: ${d.detail}`).join('; ')}`);
      }
      await call('plugin.GRPCController', 'Shutdown', Buffer.alloc(0)).catch(() => undefined);
      const code = await exited;
      if (code !== 0) throw failed(`it exited ${code}`);
      return { provider, response, stderr };
    } finally {
      session.destroy();
    }
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The first line the provider writes, within `timeoutMs`. */
function handshakeLine(stdout: NodeJS.ReadableStream, exited: Promise<unknown>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`it wrote no handshake line in ${timeoutMs / 1000} s`)), timeoutMs);
    stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, end));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`it exited (${String(code)}) before its handshake`));
    });
  });
}

/** One unary gRPC call: a length-prefixed message out, the answer's message back, or its grpc-status as an error. */
function unary(session: ReturnType<typeof connectHttp2>, service: string, method: string, message: Buffer) {
  return new Promise<Buffer>((resolve, reject) => {
    const stream = session.request({
      [h2.HTTP2_HEADER_METHOD]: 'POST',
      [h2.HTTP2_HEADER_PATH]: `/${service}/${method}`,
      [h2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
      te: 'trailers',
    });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    let statusMessage = '';
    const take = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
      if (headers['grpc-message'] !== undefined) statusMessage = decodeURIComponent(String(headers['grpc-message']));
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      if (status !== '0') return reject(new Error(`${method}: grpc-status ${status ?? 'missing'} ${statusMessage}`));
      const body = Buffer.concat(chunks);
      if (body.length < 5) return reject(new Error(`${method}: no message in the answer`));
      resolve(body.subarray(5, 5 + body.readUInt32BE(1)));
    });
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    stream.end(frame);
  });
}

/** A configuration that sets nothing: every attribute null, every block absent or empty. */
export function nullConfig(block: SchemaBlock): ObjectValue {
  const value: ObjectValue = {};
  for (const name of Object.keys(block.attributes)) value[name] = null;
  for (const [name, nested] of Object.entries(block.blockTypes)) {
    if (nested.nesting === 'single') value[name] = null;
    else if (nested.nesting === 'group') value[name] = nullConfig(nested.block);
    else value[name] = nested.nesting === 'map' ? {} : [];
  }
  return value;
}
