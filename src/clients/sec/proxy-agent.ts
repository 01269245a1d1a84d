// The sec pool's agent through a proxy (../proxy.ts): https-proxy-agent opens a CONNECT tunnel to the
// API host for each connection, and TLS runs through it to the API host, verified against the pool's
// trust. Its agent-base counts a connection while its tunnel is being opened, so the pool's limits and
// keep-alive hold as they do without a proxy. Loaded only when a proxy is used (./http-pool.ts).
import type { ClientRequest } from 'node:http';
import { checkServerIdentity, type SecureContext, type TLSSocket } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { type ProxyChoice, proxyOrigin } from '../proxy.js';
import { type AgentSettings, POOL_ERROR_CODES, PoolError, agentOptions, guardConnect } from './connections.js';

type ConnectOptions = Parameters<HttpsProxyAgent<string>['connect']>[1];

/** The proxy's answer to CONNECT, as https-proxy-agent reports it. */
interface ConnectAnswer {
  readonly statusCode: number;
}

class TunnelAgent extends HttpsProxyAgent<string> {
  constructor(
    private readonly choice: ProxyChoice,
    private readonly apiHost: string,
    private readonly settings: AgentSettings,
    secureContext: SecureContext | undefined,
  ) {
    // An https:// proxy is verified against the same trust as the API.
    super(choice.url, {
      ...agentOptions(settings),
      rejectUnauthorized: true,
      ...(secureContext ? { secureContext } : {}),
    });
  }

  override async connect(req: ClientRequest, opts: ConnectOptions) {
    const deadline = Date.now() + this.settings.connectTimeoutMs;
    let answer: ConnectAnswer | undefined;
    req.once('proxyConnect', (connect: ConnectAnswer) => {
      answer = connect;
    });
    // The API's certificate is checked against the API's host, even when it is an address (for which
    // no SNI is sent and https-proxy-agent would check the proxy's name).
    const tunnel = super.connect(req, {
      ...opts,
      checkServerIdentity: (_host: string, certificate) => checkServerIdentity(this.apiHost, certificate),
    } as ConnectOptions);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A tunnel opened after all is closed at once.
        tunnel.then(
          (socket) => socket.destroy(),
          () => undefined,
        );
        const ms = this.settings.connectTimeoutMs;
        reject(new PoolError(`no connection through the proxy within ${ms} ms`, POOL_ERROR_CODES.connectTimeout));
      }, this.settings.connectTimeoutMs);
    });
    let socket: Awaited<typeof tunnel>;
    try {
      socket = await Promise.race([tunnel, timedOut]);
    } catch (error) {
      throw this.failure(error);
    } finally {
      clearTimeout(timer);
    }
    if (answer && answer.statusCode !== 200) {
      // https-proxy-agent would hand node the proxy's answer as if it were the API's.
      socket.destroy();
      const status = Number.isInteger(answer.statusCode) ? `HTTP ${answer.statusCode}` : 'a malformed answer';
      const code = answer.statusCode >= 500 ? POOL_ERROR_CODES.proxyUnavailable : POOL_ERROR_CODES.proxyRefused;
      throw new PoolError(`${this.proxyName()} would not open a tunnel to the API (${status})`, code);
    }
    if (opts.secureEndpoint) guardConnect(socket as TLSSocket, Math.max(0, deadline - Date.now()), 'secureConnect');
    return socket;
  }

  private proxyName(): string {
    return `the proxy ${proxyOrigin(this.choice)} (${this.choice.variable})`;
  }

  /** A failure to reach the proxy, named as such; its code (ECONNREFUSED, ...) is kept for the retry rules. */
  private failure(error: unknown): Error {
    if (error instanceof PoolError) return error;
    const cause = error as Error & { code?: string };
    // A proxy that closes before answering CONNECT sent nothing to the API.
    const code = cause.code ?? POOL_ERROR_CODES.proxyUnavailable;
    return new PoolError(`${this.proxyName()}: ${cause.message ?? String(error)}`, code);
  }
}

/** An agent whose connections go through `proxy` to `apiHost`. */
export function proxyAgent(
  proxy: ProxyChoice,
  apiHost: string,
  settings: AgentSettings,
  secureContext: SecureContext | undefined,
): TunnelAgent {
  return new TunnelAgent(proxy, apiHost, settings, secureContext);
}
