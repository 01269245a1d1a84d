// AutoMTLS certificates (protocol.md §1.4).
//
// Each process makes a fresh ECDSA P-256 key and a self-signed certificate in
// go-plugin's shape: SAN DNS localhost (Go ignores the CN), CA:TRUE, key usage
// digitalSignature|keyEncipherment|keyAgreement|keyCertSign, EKU serverAuth +
// clientAuth, NotBefore back-dated 30 s for clock skew, positive serial. The
// same shape serves the Terraform-side client (src/tfclient/launch.ts).
import { webcrypto, randomBytes } from 'node:crypto';

// @peculiar/x509 depends on tsyringe, which refuses to load without a Reflect
// metadata API. It only needs get/getOwn/define, so a tiny WeakMap-backed
// version is installed when no polyfill (e.g. reflect-metadata) is present.
function ensureReflectMetadata(): void {
  const r = Reflect as unknown as Record<string, unknown>;
  if (typeof r.getMetadata === 'function') return;
  const store = new WeakMap<object, Map<unknown, unknown>>();
  const own = (key: unknown, target: object) => store.get(target)?.get(key);
  r.getOwnMetadata = own;
  r.getMetadata = (key: unknown, target: object) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t)) {
      const v = own(key, t);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  r.defineMetadata = (key: unknown, value: unknown, target: object) => {
    let m = store.get(target);
    if (!m) store.set(target, (m = new Map()));
    m.set(key, value);
  };
}

export interface GeneratedCertificate {
  /** PKCS#8 private key, PEM. */
  keyPem: string;
  /** Certificate, PEM. */
  certPem: string;
  /** Certificate, DER. */
  certDer: Buffer;
  /** Time spent generating (ms), for start-up measurements. */
  ms: number;
}

const VALIDITY_MS = 365 * 24 * 3600 * 1000; // one process lifetime is far shorter
const BACKDATE_MS = 30_000;

type X509Module = typeof import('@peculiar/x509');
let x509Module: Promise<X509Module> | undefined;

/** Loads @peculiar/x509 once (it is the costliest import of the start-up path). */
function loadX509(): Promise<X509Module> {
  x509Module ??= (async () => {
    ensureReflectMetadata();
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    return x509;
  })();
  return x509Module;
}

function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** 16 random bytes, high bit clear and non-zero lead: a positive, minimally encoded INTEGER. */
function positiveSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

export async function generateCertificate(commonName = 'localhost'): Promise<GeneratedCertificate> {
  const started = performance.now();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  // Key generation runs on the libuv pool while x509 loads on the main thread.
  const [keys, x509] = await Promise.all([
    webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']) as Promise<CryptoKeyPair>,
    loadX509(),
  ]);
  const now = Date.now();
  const usages =
    x509.KeyUsageFlags.digitalSignature |
    x509.KeyUsageFlags.keyEncipherment |
    x509.KeyUsageFlags.keyAgreement |
    x509.KeyUsageFlags.keyCertSign;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: positiveSerialHex(),
    name: `CN=${commonName}`,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + VALIDITY_MS),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(usages, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }]),
    ],
  });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const certDer = Buffer.from(cert.rawData);
  return {
    keyPem: toPem('PRIVATE KEY', pkcs8),
    certPem: toPem('CERTIFICATE', certDer),
    certDer,
    ms: performance.now() - started,
  };
}

/** Handshake field 6: base64 of the DER, standard alphabet, `=` padding removed (Go RawStdEncoding). */
export function handshakeCertField(certDer: Uint8Array): string {
  return Buffer.from(certDer).toString('base64').replace(/=+$/, '');
}

/** Inverse of handshakeCertField; rejects padding and foreign characters as Go's RawStdEncoding does. */
export function parseHandshakeCertField(field: string): Buffer {
  const m = /[^A-Za-z0-9+/]/.exec(field);
  if (m) throw new Error(`illegal base64 data at input byte ${m.index}`);
  if (field.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${field.length - 1}`);
  return Buffer.from(field, 'base64');
}

export function derToPem(certDer: Uint8Array): string {
  return toPem('CERTIFICATE', certDer);
}
