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

/** PEM certificates to pass as `ca`; read once. An unreadable extra file is ignored with a warning, as Node does. */
export function apiTrustRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  if (roots && env === process.env) return roots;
  const result = [...rootCertificates];
  const file = env.NODE_EXTRA_CA_CERTS || env[HANDED_OVER_EXTRA_CA_CERTS];
  if (file) {
    try {
      result.push(...(readFileSync(file, 'latin1').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []));
    } catch (error) {
      process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(error as Error).message}`);
    }
  }
  if (env === process.env) roots = result;
  return result;
}

let context: SecureContext | undefined;

/** One TLS context over apiTrustRoots() for every API connection: building it parses each root. */
export function apiSecureContext(): SecureContext {
  context ??= createSecureContext({ ca: apiTrustRoots() });
  return context;
}
