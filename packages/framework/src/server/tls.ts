// AutoMTLS certificates (docs/protocol.md, "AutoMTLS").
//
// Each process makes a fresh ECDSA P-256 key and a self-signed certificate in
// go-plugin's shape: SAN DNS localhost (Go ignores the CN), CA:TRUE, key usage
// digitalSignature|keyEncipherment|keyAgreement|keyCertSign, EKU serverAuth +
// clientAuth, NotBefore back-dated 30 s for clock skew, positive serial. The
// same shape serves the Terraform-side client (src/tfclient/launch.ts).
import { selfSignedCertificate, toPem } from './self-signed.js';

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

/**
 * The certificate is written as DER over node:crypto (./self-signed.ts); async for its callers. Timed
 * with process.hrtime: the global `performance` loads node's perf_hooks at its first use (~0.4 ms of
 * every start).
 */
export async function generateCertificate(commonName = 'localhost'): Promise<GeneratedCertificate> {
  const started = process.hrtime.bigint();
  const cert = selfSignedCertificate(commonName);
  return { ...cert, ms: Number(process.hrtime.bigint() - started) / 1e6 };
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
