/**
 * Why a gRPC channel could not connect, in one sentence that names what failed and what to check,
 * instead of grpc-js's "No connection established. Last error: …. Resolution note: " text. A
 * connection that was never established sent nothing, so whatever the call, its outcome is known.
 * A certificate or protocol failure does not pass by itself: it is not worth retrying.
 */
import { ADD_THE_CA } from '../trust.js';

export interface ConnectionFailure {
  /** Whether trying again may succeed (a server restarting, a DNS or network blip). */
  readonly passing: boolean;
  readonly sentence: string;
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
    return {
      passing: true,
      sentence:
        `the host ${ctx.host} could not be found (name resolution failed): check the API URL and this ` +
        `machine's DNS`,
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
