import { expect } from 'chai';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSecSettings, normaliseAccount, type SecProviderSettings } from '../../../src/resources/sec/provider-config.js';
import { Diagnostics, DiagnosticError } from '../../../src/engine/diagnostics.js';

const empty: SecProviderSettings = { account: null, api_key: null, api_secret: null, api_token: null, profile: null, subaccount: null, organization: null };

function home(profileToml?: string, mode = 0o600): string {
  const dir = mkdtempSync(join(tmpdir(), 'sec-home-'));
  if (profileToml !== undefined) {
    writeFileSync(join(dir, '.sec.toml'), profileToml);
    chmodSync(join(dir, '.sec.toml'), mode);
  }
  return dir;
}

function failure(fn: () => unknown): DiagnosticError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DiagnosticError) return err;
    throw err;
  }
  throw new Error('expected a DiagnosticError');
}

describe('sec provider configuration', () => {
  it('lets the provider block win over the environment, per setting', () => {
    const s = resolveSecSettings({ ...empty, account: 'blockacct', api_key: 'blockkey' }, { SEC_ACCOUNT: 'envacct', SEC_API_KEY: 'envkey', SEC_API_SECRET: 'envsecret', HOME: home() }, new Diagnostics());
    expect(s).to.deep.include({ account: 'blockacct', apiKey: 'blockkey', apiSecret: 'envsecret', baseUrl: 'https://blockacct.sec-platform.example', organization: false });
  });

  it('does not read the profile when static credentials are complete', () => {
    const h = home('this is not toml');
    const s = resolveSecSettings(empty, { SEC_ACCOUNT: 'a', SEC_API_TOKEN: 'tok', HOME: h }, new Diagnostics());
    expect(s).to.deep.include({ account: 'a', apiToken: 'tok' });
  });

  it('fills what is missing from the named profile, and SEC_API_URL overrides the base URL', () => {
    const h = home('[default]\naccount = "d"\n[prod]\naccount = "acme.eu"\napi_key = "k"\napi_secret = "s"\nsubaccount = "team"\n');
    const s = resolveSecSettings({ ...empty, profile: 'prod' }, { HOME: h, SEC_API_URL: 'http://127.0.0.1:9' }, new Diagnostics());
    expect(s).to.deep.include({ account: 'acme.eu', apiKey: 'k', apiSecret: 's', subaccount: 'team', baseUrl: 'http://127.0.0.1:9' });
  });

  it('explains a missing profile file, a missing profile and missing credentials', () => {
    expect(failure(() => resolveSecSettings(empty, { HOME: home() }, new Diagnostics())).summary).to.equal('The provider is not configured properly');
    expect(failure(() => resolveSecSettings({ ...empty, profile: 'nope' }, { HOME: home('[default]\naccount = "a"\n') }, new Diagnostics())).summary).to.equal("Profile 'nope' not found");
    expect(failure(() => resolveSecSettings(empty, { HOME: home('[default]\naccount = "a"\napi_key = "k"\n') }, new Diagnostics())).summary).to.equal('Missing credentials');
  });

  it('warns about a profile file other users can read', () => {
    const diags = new Diagnostics();
    resolveSecSettings(empty, { HOME: home('[default]\naccount = "a"\napi_key = "k"\napi_secret = "s"\n', 0o644) }, diags);
    expect(diags.items.map((d) => d.summary)).to.deep.equal(['Profile file is readable by other users']);
  });

  it('never puts a secret into its error messages', () => {
    const err = failure(() => resolveSecSettings({ ...empty, api_secret: 'TOP-SECRET-VALUE' }, { HOME: home() }, new Diagnostics()));
    expect(`${err.summary} ${err.detail}`).to.not.include('TOP-SECRET-VALUE');
  });

  it('reduces a full URL to the account subdomain', () => {
    expect(normaliseAccount('https://acme.sec-platform.example/ui')).to.equal('acme');
    expect(normaliseAccount('acme.eu.sec-platform.example')).to.equal('acme.eu');
    expect(normaliseAccount('acme')).to.equal('acme');
  });
});
