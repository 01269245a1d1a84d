/**
 * Which proxy, if any, an API connection goes through: the rules of Go's net/http
 * (ProxyFromEnvironment, golang.org/x/net/http/httpproxy), which Terraform and every Go provider
 * follow, so that one environment means the same to all of them.
 *
 * - HTTPS_PROXY for https URLs, HTTP_PROXY for http ones; the upper-case name wins over the
 *   lower-case one, and an empty value counts as unset. A value without a scheme of http, https or
 *   socks5 is read as `http://<value>`; one that is not a URL even so is ignored, as Go ignores it.
 * - Never for loopback: `localhost` and loopback addresses are always reached directly.
 * - NO_PROXY (or no_proxy): comma-separated; `*` matches everything; an IP address or CIDR range
 *   matches addresses; a name matches itself and its subdomains (`.name` and `*.name` subdomains
 *   only); an entry may carry a port (`name:443`, `[::1]:443`), which then must match too.
 * - In a CGI process (REQUEST_METHOD set), HTTP_PROXY is refused: a client could have set it.
 *
 * The decision is made once, when a client is built, from the environment it is given.
 */
import { BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { ownEntry } from '@keel/provider-framework/client';

/** The proxy an API connection goes through, and which variable named it (for messages). */
export interface ProxyChoice {
  readonly url: URL;
  readonly variable: string;
}

/** Where to connect for a URL: `undefined` means directly. */
export type ProxyFor = (target: URL) => ProxyChoice | undefined;

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443', 'socks5:': '1080' };
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:']);

/** The first of the names that is set to something, as Go's getEnvAny reads them. */
function firstVariable(env: NodeJS.ProcessEnv, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value) return { name, value };
  }
  return undefined;
}

/** A proxy variable's value as Go's parseProxy reads it; undefined when it is not usable at all. */
function parseProxy(value: string): URL | undefined {
  const parsed = tryUrl(value);
  if (parsed && PROXY_SCHEMES.has(parsed.protocol) && parsed.host !== '') return parsed;
  const withScheme = tryUrl(`http://${value}`);
  return withScheme && withScheme.host !== '' ? withScheme : undefined;
}

function tryUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Go's net.SplitHostPort: a port is required; a bracketed host is an IPv6 literal. */
function splitHostPort(text: string): { host: string; port: string } | undefined {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0 || text[end + 1] !== ':') return undefined;
    return { host: text.slice(1, end), port: text.slice(end + 2) };
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0 || text.indexOf(':') !== colon) return undefined;
  return { host: text.slice(0, colon), port: text.slice(colon + 1) };
}

const ipFamily = (address: string): 'ipv4' | 'ipv6' | undefined =>
  isIP(address) === 4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : undefined;

/** Loopback addresses (Go's IP.IsLoopback), IPv4-mapped ones included. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

type Matcher = (host: string, port: string, ip: 'ipv4' | 'ipv6' | undefined) => boolean;

/** NO_PROXY's entries as matchers (Go's httpproxy config.init); malformed entries are skipped, as Go skips them. */
function noProxyMatchers(noProxy: string): { ip: Matcher[]; domain: Matcher[] } {
  const ip: Matcher[] = [];
  const domain: Matcher[] = [];
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return { ip: [() => true], domain: [() => true] };
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    const cidrFamily = cidr ? ipFamily(cidr[1]!) : undefined;
    if (cidr && cidrFamily && Number(cidr[2]) <= (cidrFamily === 'ipv4' ? 32 : 128)) {
      const range = new BlockList();
      range.addSubnet(cidr[1]!, Number(cidr[2]), cidrFamily);
      ip.push((host, _port, family) => family !== undefined && range.check(host, family));
      continue;
    }
    const split = splitHostPort(entry);
    if (split && split.host === '') continue;
    const host = split ? split.host.replace(/^\[(.*)\]$/, '$1') : entry;
    const port = split?.port ?? '';
    const family = ipFamily(host);
    if (family) {
      const address = new BlockList();
      address.addAddress(host, family);
      ip.push((h, p, f) => f !== undefined && address.check(h, f) && (port === '' || port === p));
      continue;
    }
    if (host === '') continue;
    // "name" matches name and its subdomains; ".name" and "*.name" its subdomains only.
    const dotted = host.startsWith('*.') ? host.slice(1) : host;
    const matchesItself = !dotted.startsWith('.');
    const suffix = matchesItself ? `.${dotted}` : dotted;
    const name = domainToASCII(suffix) || suffix;
    domain.push((h, p) => (h.endsWith(name) || (matchesItself && h === name.slice(1))) && (port === '' || port === p));
  }
  return { ip, domain };
}

/**
 * The proxy decision for the given environment, as Go makes it. Throws for an http URL in a CGI
 * process whose HTTP_PROXY is set, as Go's ProxyFunc fails such a request.
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv): ProxyFor {
  const https = firstVariable(env, 'HTTPS_PROXY', 'https_proxy');
  const http = firstVariable(env, 'HTTP_PROXY', 'http_proxy');
  const httpsProxy = https && parseProxy(https.value);
  const httpProxy = http && parseProxy(http.value);
  const cgi = Boolean(env.REQUEST_METHOD);
  const matchers = noProxyMatchers(firstVariable(env, 'NO_PROXY', 'no_proxy')?.value ?? '');
  return (target) => {
    let choice: ProxyChoice | undefined;
    if (target.protocol === 'https:' && httpsProxy) choice = { url: httpsProxy, variable: https.name };
    else if (target.protocol === 'http:' && httpProxy) {
      if (cgi) throw new Error('refusing to use HTTP_PROXY in a CGI process (REQUEST_METHOD is set)');
      choice = { url: httpProxy, variable: http.name };
    }
    if (!choice) return undefined;
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = target.port || ownEntry(DEFAULT_PORTS, target.protocol) || '';
    return useProxy(host, port, matchers) ? choice : undefined;
  };
}

function useProxy(hostname: string, port: string, matchers: { ip: Matcher[]; domain: Matcher[] }): boolean {
  if (hostname === 'localhost') return false;
  const family = ipFamily(hostname);
  if (family && LOOPBACK.check(hostname, family)) return false;
  const host = hostname.toLowerCase();
  if (family && matchers.ip.some((match) => match(host, port, family))) return false;
  return !matchers.domain.some((match) => match(host, port, family));
}

/** The proxy's address for messages: its origin, never its credentials. */
export function proxyOrigin(proxy: ProxyChoice): string {
  return `${proxy.url.protocol}//${proxy.url.host}`;
}
