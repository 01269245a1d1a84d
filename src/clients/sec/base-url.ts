import { ApiError } from '@keel/provider-framework/client';

export interface ApiEndpoint {
  /** scheme://host[:port], what the connection pool is keyed on. */
  readonly origin: string;
  /** Path before /api/v2, usually "" (no trailing slash). */
  readonly pathPrefix: string;
}

/**
 * Checks the configured base URL. Plain http:// is allowed only for loopback hosts (the local
 * emulator); anything reachable over a network must use TLS. The platform's own `/api/v2` at the end
 * (as users copy the URL from the API docs) is the API's path, not a prefix before it: it is dropped.
 */
export function parseBaseUrl(baseUrl: string): ApiEndpoint {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw configError(`the API URL ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.username || url.password) throw configError('the API URL must not contain credentials');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw configError(`the API URL must use https:// (got ${url.protocol}//)`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw configError(
      `refusing plain http:// to ${url.hostname}: only loopback hosts (127.0.0.0/8, ::1, localhost) may be reached ` +
        `without TLS; use https://`,
    );
  }
  if (url.search || url.hash)
    throw configError(
      `the API URL must not carry a query or a fragment (${JSON.stringify(url.search + url.hash)}): give the address ` +
        `of the platform, e.g. https://acme.sec-platform.example`,
    );
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '').replace(/\/api\/v2$/i, '') };
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
  return new ApiError(detail, { code: 'invalid', operation: 'configure sec client' });
}
