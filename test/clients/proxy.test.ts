/**
 * The proxy decision (src/clients/proxy.ts) against Go's net/http ProxyFromEnvironment: each row was
 * also run through Go 1.19's own function (a five-line program printing http.ProxyFromEnvironment
 * for each URL under each environment) and gave the same answer.
 */
import { expect } from 'chai';
import { proxyFromEnvironment } from '../../src/clients/proxy.js';

/** An environment, and for each URL the proxy Go picks: its URL, 'DIRECT' or 'ERROR'. */
const GO_PROXY_CASES: [Record<string, string>, Record<string, string>][] = [
  [
    { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' },
    { 'https://api.example.com': 'http://upper:1', 'http://api.example.com': 'http://plain:3' },
  ],
  [{ https_proxy: 'http://lower:2' }, { 'https://api.example.com': 'http://lower:2' }],
  [{ HTTPS_PROXY: '', https_proxy: 'http://lower:2' }, { 'https://api.example.com': 'http://lower:2' }],
  [
    { HTTP_PROXY: 'http://plain:3' },
    { 'https://api.example.com': 'DIRECT', 'http://api.example.com': 'http://plain:3' },
  ],
  [
    { HTTPS_PROXY: 'proxy.corp:3128', HTTP_PROXY: 'user:pa%20ss@proxy.corp:8080' },
    {
      'https://api.example.com': 'http://proxy.corp:3128',
      'http://api.example.com': 'http://user:pa%20ss@proxy.corp:8080',
    },
  ],
  [{ HTTPS_PROXY: 'https://secure-proxy:8443' }, { 'https://api.example.com': 'https://secure-proxy:8443' }],
  [{ HTTPS_PROXY: 'socks5://socks:1080' }, { 'https://api.example.com': 'socks5://socks:1080' }],
  [
    { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' },
    {
      'https://localhost': 'DIRECT',
      'https://localhost:8443': 'DIRECT',
      'http://localhost:8080': 'DIRECT',
      'https://127.0.0.1': 'DIRECT',
      'https://127.1.2.3:8443': 'DIRECT',
      'https://[::1]:443': 'DIRECT',
      'https://[::ffff:127.0.0.1]': 'DIRECT',
      'https://localhost.example.com': 'http://p:1',
      'https://128.0.0.1': 'http://p:1',
    },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com' },
    {
      'https://example.com': 'DIRECT',
      'https://api.example.com': 'DIRECT',
      'https://notexample.com': 'http://p:1',
      'https://example.com.evil': 'http://p:1',
    },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.com' },
    { 'https://example.com': 'http://p:1', 'https://api.example.com': 'DIRECT' },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*.example.com' },
    { 'https://example.com': 'http://p:1', 'https://a.b.example.com': 'DIRECT' },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' },
    { 'https://api.example.com': 'DIRECT', 'https://10.0.0.1': 'DIRECT' },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: '10.0.0.0/8, 2001:db8::/32' },
    {
      'https://10.1.2.3': 'DIRECT',
      'https://11.0.0.1': 'http://p:1',
      'https://[2001:db8::5]': 'DIRECT',
      'https://[2001:db9::5]': 'http://p:1',
      'https://api.example.com': 'http://p:1',
    },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: '192.168.1.5,[2001:db8::1]:443' },
    {
      'https://192.168.1.5:8443': 'DIRECT',
      'https://192.168.1.6': 'http://p:1',
      'https://[2001:db8::1]': 'DIRECT',
      'https://[2001:db8::1]:8443': 'http://p:1',
    },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com:8443' },
    { 'https://api.example.com:8443': 'DIRECT', 'https://api.example.com': 'http://p:1' },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: ' Example.COM , ,other.test ' },
    { 'https://API.example.com': 'DIRECT', 'https://other.test': 'DIRECT', 'https://third.test': 'http://p:1' },
  ],
  [
    { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'a.test', no_proxy: 'b.test' },
    { 'https://a.test': 'DIRECT', 'https://b.test': 'http://p:1' },
  ],
  [{ HTTPS_PROXY: 'http://p:1', no_proxy: 'b.test' }, { 'https://b.test': 'DIRECT' }],
  [{ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'bücher.example' }, { 'https://www.bücher.example': 'DIRECT' }],
  [
    { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://q:2', REQUEST_METHOD: 'GET' },
    { 'http://api.example.com': 'ERROR', 'https://api.example.com': 'http://q:2' },
  ],
];

/** What proxyFromEnvironment answers, written as the Go program prints it. */
function ourAnswer(env: Record<string, string>, url: string): string {
  try {
    const choice = proxyFromEnvironment(env)(new URL(url));
    return choice ? choice.url.href.replace(/\/$/, '') : 'DIRECT';
  } catch {
    return 'ERROR';
  }
}

describe('clients/proxy: which proxy a connection goes through, as Go decides', () => {
  for (const [env, answers] of GO_PROXY_CASES) {
    it(`under ${JSON.stringify(env)}`, () => {
      const ours = Object.fromEntries(Object.keys(answers).map((url) => [url, ourAnswer(env, url)]));
      expect(ours).to.deep.equal(answers);
    });
  }

  it('sends a URL of another scheme direct, a scheme named like a member every object has too', () => {
    // (A URL's protocol is lower case and ends with a colon, so it never is such a name itself.)
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: 'a.test:80' };
    for (const scheme of ['constructor', 'hasownproperty', 'ftp']) {
      expect(ourAnswer(env, `${scheme}://a.test`), scheme).to.equal('DIRECT');
      expect(ourAnswer(env, `${scheme}://b.test:8080/x`), scheme).to.equal('DIRECT');
    }
  });

  it('names the variable it took the proxy from', () => {
    expect(proxyFromEnvironment({ https_proxy: 'http://p:1' })(new URL('https://a.test'))?.variable).to.equal(
      'https_proxy',
    );
    expect(proxyFromEnvironment({ HTTPS_PROXY: 'http://p:1' })(new URL('https://a.test'))?.variable).to.equal(
      'HTTPS_PROXY',
    );
  });
});
