import { ApiError } from '@keel/provider-framework/client';

export interface VdbEndpoint {
  /** The gRPC target, `host:port` (IPv6 hosts in brackets). */
  readonly target: string;
  /** The host name as it appears in the URL (for messages and certificate checks). */
  readonly host: string;
  /** False only for `http://` URLs of loopback hosts. */
  readonly tls: boolean;
}

const TLS_PORT = 443;
const PLAINTEXT_PORT = 80;

/**
 * Reads the configured API URL (docs/decisions.md, "The API address"): `host[:port]` and
 * `https://host[:port]` are TLS (port 443 by default); `http://host[:port]` is plaintext and
 * allowed only when the host is loopback (the emulators). Anything else is an ApiError 'invalid'.
 */
export function parseApiUrl(apiUrl: string): VdbEndpoint {
  const text = apiUrl.trim();
  if (text === '') throw configError('the API URL is empty');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw configError(
      `the API URL must be host:port, https://host[:port] or, for a local emulator, http://127.0.0.1:port (got ` +
        `scheme ${scheme}://)`,
    );
  }
  let url: URL;
  try {
    url = new URL(scheme === undefined ? `https://${text}` : text);
  } catch {
    throw configError(`the API URL ${JSON.stringify(apiUrl)} is not a valid host:port or URL`);
  }
  if (url.username || url.password) throw configError('the API URL must not contain credentials');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw configError('the API URL must not have a path, query or fragment (gRPC uses host and port only)');
  }
  const tls = url.protocol === 'https:';
  if (!tls && !isLoopbackHost(url.hostname)) {
    throw configError(
      `refusing plaintext http:// to ${url.hostname}: only loopback hosts (127.0.0.0/8, ::1, localhost) may be ` +
        `reached without TLS; use host:port or https://`,
    );
  }
  const port = url.port === '' ? (tls ? TLS_PORT : PLAINTEXT_PORT) : Number(url.port);
  return { target: `${url.hostname}:${port}`, host: url.hostname.replace(/^\[|\]$/g, ''), tls };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

function configError(detail: string): ApiError {
  return new ApiError(detail, { code: 'invalid', operation: 'configure vdb client' });
}
