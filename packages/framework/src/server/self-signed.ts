// A self-signed ECDSA P-256 certificate in go-plugin's AutoMTLS shape
// (docs/protocol.md, "The server certificate"), written as DER by hand over node:crypto. A
// certificate library cost 25–40 ms of every provider start (docs/benchmarks.md); this fixed shape
// needs only a few TLV writers. No dependencies, so the benchmark's Node floor server
// (scripts/bench/floor-server.ts) uses it too.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface SelfSignedCertificate {
  /** PKCS#8 private key, PEM. */
  keyPem: string;
  /** Certificate, PEM. */
  certPem: string;
  /** Certificate, DER. */
  certDer: Buffer;
}

const VALIDITY_MS = 365 * 24 * 3600 * 1000; // one process lifetime is far shorter
const BACKDATE_MS = 30_000; // clock skew, as go-plugin

/** One DER TLV: tag byte, definite length, contents. */
function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const n = body.length;
  const header = n < 0x80 ? [tag, n] : n < 0x100 ? [tag, 0x81, n] : [tag, 0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from(header), body]);
}

const hex = (h: string) => Buffer.from(h.replace(/ /g, ''), 'hex');
const SEQ = 0x30;
const SET = 0x31;
const OCTETS = 0x04;
const seq = (...parts: Buffer[]) => tlv(SEQ, ...parts);
const TRUE = hex('01 01 ff');

const OID = {
  ecdsaWithSha256: hex('06 08 2a 86 48 ce 3d 04 03 02'), // 1.2.840.10045.4.3.2
  commonName: hex('06 03 55 04 03'), // 2.5.4.3
  basicConstraints: hex('06 03 55 1d 13'), // 2.5.29.19
  keyUsage: hex('06 03 55 1d 0f'), // 2.5.29.15
  extKeyUsage: hex('06 03 55 1d 25'), // 2.5.29.37
  subjectAltName: hex('06 03 55 1d 11'), // 2.5.29.17
  serverAuth: hex('06 08 2b 06 01 05 05 07 03 01'), // 1.3.6.1.5.5.7.3.1
  clientAuth: hex('06 08 2b 06 01 05 05 07 03 02'), // 1.3.6.1.5.5.7.3.2
};

/** UTCTime (years 1950–2049, RFC 5280 §4.1.2.5.1): YYMMDDHHMMSSZ. */
function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString(); // 2026-11-22T18:43:46.123Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function extension(oid: Buffer, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid, TRUE, tlv(OCTETS, value)) : seq(oid, tlv(OCTETS, value));
}

/** 16 random bytes, high bit clear and non-zero lead: a positive, minimally encoded INTEGER. */
function positiveSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return tlv(0x02, bytes);
}

function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * Fresh key and certificate: SAN DNS `commonName`, localhost by default (Go ignores the CN), CA:TRUE
 * (critical), key usage digitalSignature|keyEncipherment|keyAgreement|keyCertSign (critical), EKU serverAuth +
 * clientAuth, NotBefore back-dated 30 s, positive serial.
 */
export function selfSignedCertificate(commonName = 'localhost'): SelfSignedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const name = seq(tlv(SET, seq(OID.commonName, tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const algorithm = seq(OID.ecdsaWithSha256);
  const extensions = seq(
    extension(OID.basicConstraints, true, seq(TRUE)),
    // Bits 0, 2, 4, 5 = 1010 1100; the two trailing zero bits are unused.
    extension(OID.keyUsage, true, hex('03 02 02 ac')),
    extension(OID.extKeyUsage, false, seq(OID.serverAuth, OID.clientAuth)),
    extension(OID.subjectAltName, false, seq(tlv(0x82, Buffer.from(commonName, 'ascii')))),
  );
  const tbs = seq(
    hex('a0 03 02 01 02'), // [0] version v3
    positiveSerial(),
    algorithm,
    name, // issuer = subject: self-signed
    seq(utcTime(now - BACKDATE_MS), utcTime(now + VALIDITY_MS)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certDer = seq(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    certPem: toPem('CERTIFICATE', certDer),
    certDer,
  };
}

export { toPem };
