// The certificate authorities the API clients trust, given to them explicitly: the bundled Mozilla
// roots plus NODE_EXTRA_CA_CERTS, exactly what Node trusts by default. Explicit because the bin/
// wrappers start node with --use-openssl-ca and an empty OpenSSL store (Node otherwise parses all
// its roots for the provider's own mTLS server context, ~25 ms of every start), and hand
// NODE_EXTRA_CA_CERTS over as KEEL_NODE_EXTRA_CA_CERTS (Node 20 parses that file at start-up,
// 40–90 ms, in processes that may never call an API). README, "Benchmarks": handshake.
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/** The variable the wrappers move NODE_EXTRA_CA_CERTS to. */
export const HANDED_OVER_EXTRA_CA_CERTS = 'KEEL_NODE_EXTRA_CA_CERTS';

let roots: string[] | undefined;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The certificates of a PEM file; an unreadable file is ignored with a warning, as Node does. */
function certificatesIn(file: string, what: string): string[] {
  try {
    return readFileSync(file, 'latin1').match(PEM_CERTIFICATE) ?? [];
  } catch (error) {
    process.emitWarning(`Ignoring ${what} from \`${file}\`, load failed: ${(error as Error).message}`);
    return [];
  }
}

/** The file NODE_EXTRA_CA_CERTS names (under its own name, or handed over by the wrappers). */
const extraCertsFile = (env: NodeJS.ProcessEnv): string | undefined =>
  env.NODE_EXTRA_CA_CERTS || env[HANDED_OVER_EXTRA_CA_CERTS] || undefined;

/** PEM certificates to pass as `ca`; read once. */
export function apiTrustRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  if (roots && env === process.env) return roots;
  const file = extraCertsFile(env);
  const result = [...rootCertificates, ...(file ? certificatesIn(file, 'extra certs') : [])];
  if (env === process.env) roots = result;
  return result;
}

/** Certificate authorities and, for messages, where they come from. */
export interface Trust {
  readonly pems: readonly string[];
  readonly sources: readonly string[];
}

/**
 * What a gRPC channel trusts: GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, when set, in place of Node's bundled
 * roots (as grpc-js reads it), and NODE_EXTRA_CA_CERTS added to either, as every Node client does.
 */
export function grpcTrust(env: NodeJS.ProcessEnv = process.env): Trust {
  const grpcRoots = env.GRPC_DEFAULT_SSL_ROOTS_FILE_PATH || undefined;
  const extra = extraCertsFile(env);
  const pems = [
    ...(grpcRoots ? certificatesIn(grpcRoots, 'gRPC roots') : rootCertificates),
    ...(extra ? certificatesIn(extra, 'extra certs') : []),
  ];
  const sources = [
    grpcRoots
      ? `the certificates in GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (${grpcRoots})`
      : "Node's bundled certificate authorities",
    ...(extra ? [`those in NODE_EXTRA_CA_CERTS (${extra})`] : []),
  ];
  return { pems, sources };
}

let context: SecureContext | undefined;

/** One TLS context over apiTrustRoots() for every API connection: building it parses each root. */
export function apiSecureContext(): SecureContext {
  context ??= createSecureContext({ ca: apiTrustRoots() });
  return context;
}
