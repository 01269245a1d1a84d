/**
 * What grpc-js reports of its own, not of the API, in one sentence that names what failed and what
 * to check:
 * - why a channel could not connect, instead of grpc-js's "No connection established. Last error:
 *   …. Resolution note: " text. A connection that was never established sent nothing, so whatever
 *   the call, its outcome is known. A certificate or protocol failure, or a name that does not
 *   exist, does not pass by itself: it is not worth retrying.
 * - an answer grpc-js refused to read (too large, or headers past its bound), which grpc-js reports
 *   as RESOURCE_EXHAUSTED, the status the API says "slow down" with: it is no such thing.
 */
import { lookup } from 'node:dns/promises';
import { ADD_THE_CA } from '../trust.js';

export interface ConnectionFailure {
  /** Whether trying again may succeed (a server restarting, a DNS or network blip). */
  readonly passing: boolean;
  readonly sentence: string;
  /** The host whose name did not resolve, when that is the failure (./transport.ts asks the resolver why). */
  readonly unresolvedHost?: string;
}

export interface ConnectionContext {
  /** `host:port`, as the channel dials it. */
  readonly target: string;
  readonly host: string;
  /** Where the trusted certificate authorities come from, for a certificate failure. */
  readonly trustSources: readonly string[];
  /** The proxy the channel tunnels through, as messages name it (origin and variable), if any. */
  readonly proxy?: string | undefined;
}

const NOT_CONNECTED = /^No connection established\. Last error: (?:Error: )?(.*?)\.?(?:\s*Resolution note:.*)?$/s;
const NO_NAME = /^Name resolution failed for target (?:dns:)?(.+?)\.?$/s;
const CERTIFICATE = /certificate|CERT_|altname|hostname\/IP does not match|unable to (get|verify)/i;
const PROTOCOL = /wrong version number|unknown protocol|packet length too long|EPROTO|alert|handshake/i;

/** The failure a status detail describes, or undefined when it is not a failure to connect. */
export function connectionFailure(details: string, ctx: ConnectionContext): ConnectionFailure | undefined {
  const unresolved = NO_NAME.exec(details.trim());
  if (unresolved) {
    // The name grpc-js resolved: the API's, or the proxy's when the channel tunnels through one.
    const host = hostOf(unresolved[1]!) ?? ctx.host;
    const what = ctx.proxy && host !== ctx.host ? `the proxy host ${host}` : `the host ${host}`;
    const check = ctx.proxy && host !== ctx.host ? 'the proxy variables (HTTPS_PROXY)' : 'the API URL';
    return {
      passing: true,
      sentence: `${what} could not be found (name resolution failed): check ${check} and this machine's DNS`,
      unresolvedHost: host,
    };
  }
  const reason = NOT_CONNECTED.exec(details.trim())?.[1]?.trim();
  if (reason === undefined) return undefined;
  // grpc-js drops the cause of a failed tunnel (the proxy refused it, or could not be reached) and
  // logs it instead.
  if (ctx.proxy && (reason === 'undefined' || reason === 'null' || reason === '')) {
    return {
      passing: true,
      sentence:
        `no tunnel to ${ctx.target} could be opened through the proxy ${ctx.proxy}: the proxy could not be ` +
        'reached or refused the tunnel; check the proxy variables (HTTPS_PROXY, NO_PROXY)',
    };
  }
  if (CERTIFICATE.test(reason)) {
    return {
      passing: false,
      sentence:
        `the TLS certificate of ${ctx.target} could not be verified (${reason}). ` +
        `The provider trusts ${ctx.trustSources.join(' and ')}: ` +
        `${ADD_THE_CA}, ` +
        'or set `insecure = true` (VDB_INSECURE) to skip the check, outside production only',
    };
  }
  if (/ECONNREFUSED/.test(reason))
    return {
      passing: true,
      sentence: `nothing accepts connections at ${ctx.target} (connection refused): check the API URL and its port`,
    };
  if (/ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET/.test(reason)) {
    const code = /E[A-Z]+/.exec(reason)![0];
    return {
      passing: true,
      sentence:
        `${ctx.target} could not be reached (${code}): check the API URL, and any proxy or firewall between ` +
        `this machine and the API`,
    };
  }
  if (PROTOCOL.test(reason))
    return {
      passing: false,
      sentence:
        `the TLS handshake with ${ctx.target} failed (${reason}): check that the API URL names the API's ` +
        `gRPC endpoint`,
    };
  return { passing: true, sentence: `cannot connect to ${ctx.target}: ${reason}` };
}

/** `host:port` or `[v6]:port` → the host. */
function hostOf(target: string): string | undefined {
  const match = /^\[?([^\]]+?)\]?(?::\d+)?$/.exec(target.trim());
  return match?.[1];
}

/**
 * Whether the resolver says the name does not exist (NXDOMAIN), as opposed to a failure that may
 * pass (no answer from the DNS server, EAI_AGAIN). grpc-js's message does not tell them apart, and
 * retrying a name that does not exist only spends the call's deadline.
 */
export async function nameDoesNotExist(host: string): Promise<boolean> {
  try {
    await lookup(host);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTFOUND' || code === 'EAI_NONAME';
  }
}

/** What grpc-js says when an answer's length prefix is past grpc.max_receive_message_length. */
const ANSWER_TOO_LARGE = /^Received message larger than max \((\d+) vs (\d+)\)$/;
/** What grpc-js says of a stream reset with ENHANCE_YOUR_CALM: here, a header block past Node's bound. */
const STREAM_CALMED = 'Bandwidth exhausted or memory limit exceeded';

/**
 * The answer grpc-js refused to read, in one sentence, or undefined when the status is the API's.
 * A RESOURCE_EXHAUSTED the API sends carries its own message, never these two of grpc-js.
 */
export function refusedAnswer(details: string): string | undefined {
  const tooLarge = ANSWER_TOO_LARGE.exec(details);
  if (tooLarge) {
    return (
      `the API's answer holds a message of ${tooLarge[1]} bytes, more than the ${tooLarge[2]} the provider reads; ` +
      'nothing of it was read'
    );
  }
  if (details === STREAM_CALMED) {
    return (
      "the API's answer was cut off (HTTP/2 ENHANCE_YOUR_CALM): its headers are larger than the provider " +
      'accepts, or the connection was over its limits'
    );
  }
  return undefined;
}
