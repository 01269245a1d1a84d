/**
 * How the fuzz tests judge an answer, and the in-process provider they drive: the engine and the
 * RPC table of packages/framework/src/server/provider-service.ts, with requests and responses passed through the
 * protobuf codec exactly as grpc-js does in the real server.
 */
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { providerService, type RpcHandler } from '../../packages/framework/src/server/provider-service.js';
import {
  PreEncoded,
  SERVICE_NAMES,
  decodeMessage,
  encodeMessage,
  rpcTypes,
  type RpcName,
} from '../../packages/framework/src/server/proto.js';

type Msg = Record<string, any>;

/**
 * error: the answer carries an error diagnostic (or function/stop error) naming the problem;
 * success: a normal answer; internal: an error diagnostic that blames a provider bug, not the input;
 * invalid-diagnostic: a diagnostic without severity, which Terraform rejects.
 */
export type AnswerKind = 'error' | 'success' | 'internal' | 'invalid-diagnostic';

const isInternal = (d: Msg) =>
  String(d.summary ?? '').startsWith('Provider error during') ||
  String(d.detail ?? '').includes('This is a bug in the provider');

export function classifyResponse(rpc: string, res: Msg): AnswerKind {
  const diagnostics: Msg[] = res.diagnostics ?? [];
  if (diagnostics.some((d) => d.severity !== 1 && d.severity !== 2)) return 'invalid-diagnostic';
  if (diagnostics.some(isInternal)) return 'internal';
  if (diagnostics.some((d) => d.severity === 1)) return 'error';
  // A function's failure that is no argument's fault blames the function
  // (packages/framework/src/engine/functions/functions.ts).
  if (rpc === 'CallFunction' && /^the function \S+ (failed|returned a value)/.test(String(res.error?.text ?? '')))
    return 'internal';
  if (rpc === 'CallFunction' && res.error?.text) return 'error';
  if (rpc === 'StopProvider' && res.Error) return 'error';
  return 'success';
}

/** The first internal-error diagnostic's text, for failure messages. */
export function internalErrorText(res: Msg): string {
  const d = (res.diagnostics ?? []).find(isInternal);
  return d ? `${d.summary}: ${d.detail}` : String(res.error?.text ?? '');
}

export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

export interface InProcessProvider {
  readonly handlers: Record<string, RpcHandler>;
  /**
   * Decodes `bytes` as the RPC's request (null when they are not valid protobuf: the server would
   * answer with a gRPC status), runs the handler and returns the response as the client decodes it.
   */
  callBytes(rpc: RpcName, bytes: Buffer): Promise<Msg | null>;
  call(rpc: RpcName, request: Msg): Promise<Msg>;
}

/** An unconfigured provider whose environment is empty, so nothing can reach an API. */
export function inProcessProvider(def: ProviderDef<any, any>): InProcessProvider {
  const engine = new ProviderEngine(def, silentLogger, { HOME: '/nonexistent' });
  const handlers = providerService(engine, silentLogger);
  const callBytes = async (rpc: RpcName, bytes: Buffer): Promise<Msg | null> => {
    const { request, response } = rpcTypes(SERVICE_NAMES.provider, rpc);
    let decoded: Msg;
    try {
      decoded = decodeMessage(request, bytes);
    } catch {
      return null;
    }
    const handler = handlers[rpc];
    if (!handler) throw new Error(`no handler for ${rpc}`);
    const res = await handler(decoded, { signal: new AbortController().signal });
    // What grpc-js's serializer and the client's deserializer do with it.
    return decodeMessage(response, res instanceof PreEncoded ? res.bytes : encodeMessage(response, res));
  };
  return {
    handlers,
    callBytes,
    call: (rpc, request) =>
      callBytes(rpc, encodeMessage(rpcTypes(SERVICE_NAMES.provider, rpc).request, request)) as Promise<Msg>,
  };
}

/** Rejects when `promise` takes longer than `ms`: a handler must never hang on input. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
