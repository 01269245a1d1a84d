/**
 * The value forms (src/schema/forms.ts), one validator each for both providers: each accepts its
 * samples and refuses its counterexamples, and the cases a review of real configurations found are refused with a message
 * that says what is wanted.
 */
import { expect } from 'chai';
import * as forms from '../../src/schema/forms.js';

const every: Array<[string, forms.FormValidator<string>]> = [
  ['timestamp', forms.timestamp()],
  ['future timestamp', forms.timestamp({ future: true })],
  ['uuid', forms.uuid],
  ['https url', forms.url('https')],
  ['http(s) url', forms.url('http', 'https')],
  ['email', forms.email()],
  ['cidr', forms.ipv4Cidr],
  ['pem', forms.pemPrivateKey],
  ['name', forms.name(64)],
  ['lower-case id', forms.lowerCaseId('region id', ['eu-central-1', 'us-east4'])],
];

describe('value forms', () => {
  for (const [what, v] of every) {
    it(`${what}: accepts its samples and refuses its counterexamples`, () => {
      expect(v.samples!.length).to.be.greaterThan(0);
      for (const s of v.samples!) expect(v.check(s), JSON.stringify(s)).to.equal(undefined);
      expect(v.counterexamples.length).to.be.greaterThan(0);
      for (const c of v.counterexamples) expect(v.check(c), JSON.stringify(c)).to.be.a('string');
    });
  }

  it('lower-case ids: another case is refused with the lower-case spelling', () => {
    const v = forms.lowerCaseId('cloud provider id', ['aws']);
    expect(v.counterexamples).to.deep.equal(['AWS']);
    expect(v.check('Aws')).to.equal(
      'must be in lower case, as the platform writes cloud provider ids: "aws", got "Aws"',
    );
    expect(v.check('hybrid')).to.equal(undefined);
  });

  it('timestamps: a real calendar date, a time within the day, an offset within a day; the same instant in another spelling', () => {
    const t = forms.timestamp();
    for (const bad of [
      '2099-13-01T00:00:00Z',
      '2099-02-30T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2099-01-01T24:00:00Z',
      '2099-01-01T23:59:60Z',
      '2099-01-01T00:00:00+24:00',
      '2099-01-01T00:00:00+23:60',
    ]) {
      expect(t.check(bad), bad).to.match(
        /must be an RFC 3339 timestamp with a real date, a time from 00:00:00 to 23:59:59 and an offset/,
      );
    }
    for (const good of ['2096-02-29T00:00:00Z', '2000-02-29T12:30:00.123456789+05:45', '2099-12-31T23:59:59-23:59'])
      expect(t.check(good), good).to.equal(undefined);
    expect(forms.sameInstant('2030-01-01T02:00:00+02:00', '2030-01-01T00:00:00Z')).to.equal(true);
    expect(forms.sameInstant('2030-01-01T00:00:00.500Z', '2030-01-01T00:00:00.5Z')).to.equal(true);
    expect(forms.sameInstant('2030-01-01T00:00:00.5Z', '2030-01-01T00:00:00Z')).to.equal(false);
    expect(forms.timestamp({ future: true }).check('2001-01-01T00:00:00Z')).to.equal(
      'must be in the future, got "2001-01-01T00:00:00Z"',
    );
  });

  it('UUIDs: an upper-case one is refused with its lower-case spelling', () => {
    expect(forms.uuid.check('3F1C2D4E-5A6B-4C7D-8E9F-0A1B2C3D4E5F')).to.equal(
      'must be in lower case, as the platform writes ids: "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f"',
    );
  });

  it('URLs: a host is required in the text, not found by a lenient parser', () => {
    expect(new URL('https:///path').hostname, 'what a URL parser makes of it').to.equal('path');
    expect(forms.url('https').check('https:///path')).to.match(/must be an https:\/\/ URL with a host/);
    expect(forms.url('https').check('https://user@hooks.example.com:8443/a?b=c#d')).to.equal(undefined);
    expect(forms.url('https').check('https://[2001:db8::1]/hook')).to.equal(undefined);
  });

  it('PEM keys: a body that is not base64 is refused, without quoting the value', () => {
    const placeholder = '-----BEGIN PRIVATE KEY-----\n ... -----END PRIVATE KEY-----\n';
    const problem = forms.pemPrivateKey.check(placeholder)!;
    expect(problem).to.include('not shown because it is secret');
    expect(problem).to.not.include('...');
    const encrypted =
      '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF\n\nMIIBVQIBADANBgkq\n-----END RSA PRIVATE KEY-----\n';
    expect(forms.pemPrivateKey.check(encrypted)).to.equal(undefined);
  });

  it('names: control characters, terminal escapes, line breaks, bidirectional controls and invisible text are refused', () => {
    const n = forms.name(8192);
    expect(n.check('a\u0000b')).to.equal(
      'must not hold control characters (such as NUL, escape sequences or line breaks); character 1 is U+0000',
    );
    expect(n.check('\u001b[31mred')).to.match(/control characters.*U\+001B/);
    expect(n.check('two\nlines')).to.match(/control characters.*U\+000A/);
    expect(n.check('admin\u202egnp.exe')).to.equal('must not hold bidirectional text controls; character 5 is U+202E');
    expect(n.check('\u200b\u200b')).to.equal('must hold visible text, not only spaces or zero-width characters');
    expect(n.check('x'.repeat(8193))).to.equal('must be at most 8192 characters long, got 8193');
    for (const ok of ['Ops alerts (EU)', 'Équipe sécurité', '运维告警', 'x'.repeat(8192)])
      expect(n.check(ok)).to.equal(undefined);
  });
});
