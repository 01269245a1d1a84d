// The certificate authorities the API clients trust, as a Go provider trusts them, plus Node's own:
//
// - Node's bundled roots (Mozilla's), and NODE_EXTRA_CA_CERTS, as every Node client trusts them;
// - the system's store, as Go's crypto/x509 reads it. On Linux and the BSDs: the first of the usual
//   bundle files that exists (root_linux.go, root_bsd.go), or SSL_CERT_FILE in its place, and every
//   file of the usual certificate directories, or of SSL_CERT_DIR (colon-separated) in their place.
//   On macOS and Windows: the system's store through tls.getCACertificates('system') (Node ≥ 22.15;
//   Node 20 cannot read it there), and SSL_CERT_FILE/SSL_CERT_DIR when set, as OpenSSL tools do.
//
// Linux reads the files itself on every Node version: Node's own 'system' store there is OpenSSL's
// default paths, which for the official builds are not the distribution's, and the launchers point
// OpenSSL's paths at nothing anyway (below).
//
// Given to the clients explicitly because the bin/ wrappers start node with --use-openssl-ca and an
// empty OpenSSL store (SSL_CERT_FILE=SSL_CERT_DIR=/dev/null: Node otherwise parses its roots, and
// the user's SSL_CERT_FILE, for the provider's own mTLS server context, ~25 ms of every start), and
// hand the user's SSL_CERT_FILE, SSL_CERT_DIR and NODE_EXTRA_CA_CERTS over under KEEL_ names (Node 20
// parses NODE_EXTRA_CA_CERTS at start-up, 40–90 ms, in processes that may never call an API).
// README, "Proxies and certificate authorities"; docs/benchmarks.md: handshake.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import * as tls from 'node:tls';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/** The variables the wrappers hand over, and the names they hand them over as. */
const HANDED_OVER = {
  NODE_EXTRA_CA_CERTS: 'KEEL_NODE_EXTRA_CA_CERTS',
  SSL_CERT_FILE: 'KEEL_SSL_CERT_FILE',
  SSL_CERT_DIR: 'KEEL_SSL_CERT_DIR',
} as const;

/** Go's crypto/x509 bundle files (the first that exists is read) and directories (all are read). */
const SYSTEM_STORES: Readonly<Record<string, { readonly files: readonly string[]; readonly dirs: readonly string[] }>> =
  {
    linux: {
      files: [
        '/etc/ssl/certs/ca-certificates.crt', // Debian/Ubuntu/Gentoo etc.
        '/etc/pki/tls/certs/ca-bundle.crt', // Fedora/RHEL 6
        '/etc/ssl/ca-bundle.pem', // OpenSUSE
        '/etc/pki/tls/cacert.pem', // OpenELEC
        '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // CentOS/RHEL 7
        '/etc/ssl/cert.pem', // Alpine Linux
      ],
      dirs: ['/etc/ssl/certs', '/etc/pki/tls/certs'],
    },
    bsd: {
      files: [
        '/usr/local/etc/ssl/cert.pem', // FreeBSD
        '/etc/ssl/cert.pem', // OpenBSD
        '/usr/local/share/certs/ca-root-nss.crt', // DragonFly
        '/etc/openssl/certs/ca-certificates.crt', // NetBSD
      ],
      dirs: ['/etc/ssl/certs', '/usr/local/share/certs', '/etc/openssl/certs'],
    },
  };

const storeOf = (platform: NodeJS.Platform) =>
  platform === 'linux'
    ? SYSTEM_STORES.linux
    : platform === 'freebsd' || platform === 'openbsd' || platform === 'netbsd'
      ? SYSTEM_STORES.bsd
      : undefined;

/** Node ≥ 22.15's reader of the system's store (macOS keychain, Windows store); absent on Node 20. */
type CertificateReader = (type: 'system') => readonly string[];
const nodeSystemReader = (tls as { getCACertificates?: CertificateReader }).getCACertificates;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The user's value of a variable the wrappers may have handed over; empty counts as unset, as Go reads it. */
function userValue(env: NodeJS.ProcessEnv, name: keyof typeof HANDED_OVER): string | undefined {
  const handedOver = env[HANDED_OVER[name]];
  // The wrappers always set the KEEL_ name of SSL_CERT_*, even empty: theirs is then /dev/null.
  const value = name === 'NODE_EXTRA_CA_CERTS' ? env[name] || handedOver : (handedOver ?? env[name]);
  return value || undefined;
}

/** The certificates of a PEM file, or undefined when it cannot be read. */
function readCertificates(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'latin1').match(PEM_CERTIFICATE) ?? [];
  } catch {
    return undefined;
  }
}

/** The certificates of a file the user named; an unreadable one is ignored with a warning, as Node does. */
function namedFile(file: string, what: string): string[] {
  const found = readCertificates(file);
  if (found === undefined) process.emitWarning(`Ignoring ${what} from \`${file}\`: it cannot be read`);
  return found ?? [];
}

/** Every file of a directory, except links to a file beside them (hash links: Go skips them too). */
function directoryCertificates(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      let target: string;
      try {
        target = readlinkSync(path);
      } catch {
        continue;
      }
      if (!target.includes('/')) continue;
    }
    found.push(...(readCertificates(path) ?? []));
  }
  return found;
}

export interface Trust {
  /** PEM certificates, each once. */
  readonly pems: readonly string[];
  /** Where they come from, for messages. */
  readonly sources: readonly string[];
}

/** The system's store as Go reads it (above), and where it came from. */
export function systemTrust(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  // null for none (Node 20): an explicit undefined would take the default.
  readSystem: CertificateReader | null = nodeSystemReader ?? null,
): Trust {
  const file = userValue(env, 'SSL_CERT_FILE');
  const dir = userValue(env, 'SSL_CERT_DIR');
  const store = storeOf(platform);
  const pems: string[] = [];
  const sources: string[] = [];
  if (store) {
    const files = file ? [file] : store.files;
    for (const candidate of files) {
      const found = readCertificates(candidate);
      if (found === undefined) continue;
      pems.push(...found);
      sources.push(file ? `SSL_CERT_FILE (${file})` : `the system's ${candidate}`);
      break;
    }
    if (file && sources.length === 0) process.emitWarning(`Ignoring SSL_CERT_FILE \`${file}\`: it cannot be read`);
  } else {
    if (readSystem) {
      pems.push(...readSystem('system'));
      sources.push("the system's certificate store");
    }
    if (file) {
      pems.push(...namedFile(file, 'SSL_CERT_FILE'));
      sources.push(`SSL_CERT_FILE (${file})`);
    }
  }
  const dirs = dir ? dir.split(':').filter(Boolean) : (store?.dirs ?? []);
  for (const each of dirs) pems.push(...directoryCertificates(each));
  if (dir) sources.push(`SSL_CERT_DIR (${dir})`);
  else if (store) sources.push(`the system's ${store.dirs.join(', ')}`);
  return { pems, sources };
}

/** Each certificate once (the system's bundle repeats Node's roots, and its directory repeats the bundle). */
function unique(pems: readonly string[]): string[] {
  const seen = new Set<string>();
  return pems.filter((pem) => {
    const key = pem.replace(/\s+/g, '');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function extraTrust(env: NodeJS.ProcessEnv): Trust {
  const extra = userValue(env, 'NODE_EXTRA_CA_CERTS');
  return extra
    ? { pems: namedFile(extra, 'extra certs'), sources: [`NODE_EXTRA_CA_CERTS (${extra})`] }
    : { pems: [], sources: [] };
}

const BUNDLED = "Node's bundled certificate authorities";

/** What the sec client trusts: Node's roots, the system's (as Go reads them), NODE_EXTRA_CA_CERTS. */
export function apiTrust(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Trust {
  const system = systemTrust(env, platform);
  const extra = extraTrust(env);
  return {
    pems: unique([...rootCertificates, ...system.pems, ...extra.pems]),
    sources: [BUNDLED, ...system.sources, ...extra.sources],
  };
}

/**
 * What a gRPC channel trusts: as the sec client, except that GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, when
 * set, replaces the default roots (Node's and the system's: grpc-js reads it in place of Node's), and
 * NODE_EXTRA_CA_CERTS is added to either.
 */
export function grpcTrust(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Trust {
  const grpcRoots = env.GRPC_DEFAULT_SSL_ROOTS_FILE_PATH || undefined;
  if (!grpcRoots) return apiTrust(env, platform);
  const extra = extraTrust(env);
  return {
    pems: unique([...namedFile(grpcRoots, 'gRPC roots'), ...extra.pems]),
    sources: [`GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (${grpcRoots})`, ...extra.sources],
  };
}

const contexts = new Map<string, { readonly context: SecureContext; readonly sources: readonly string[] }>();

/** The trust for `env`, built once: building its context parses each certificate. */
function cachedApiTrust(env: NodeJS.ProcessEnv) {
  const key = JSON.stringify(Object.entries(HANDED_OVER).flatMap(([name, handed]) => [env[name], env[handed]]));
  let cached = contexts.get(key);
  if (!cached) {
    const trust = apiTrust(env);
    cached = { context: createSecureContext({ ca: trust.pems as string[] }), sources: trust.sources };
    contexts.set(key, cached);
  }
  return cached;
}

/**
 * One TLS context per trust for every API connection, keyed by the variables it reads, so that a
 * client given another environment gets its own.
 */
export function apiSecureContext(env: NodeJS.ProcessEnv = process.env): SecureContext {
  return cachedApiTrust(env).context;
}

/** Where apiSecureContext's certificate authorities come from, for messages. */
export function apiTrustSources(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  return cachedApiTrust(env).sources;
}

/** The advice both clients give when an API's certificate cannot be verified. */
export const ADD_THE_CA =
  "add the API's certificate authority to the system's store, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS";
