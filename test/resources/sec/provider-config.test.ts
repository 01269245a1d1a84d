import { expect } from 'chai';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSecSettings, normaliseAccount, type SecProviderSettings } from '../../../src/resources/sec/provider-config.js';
import { Diagnostics, DiagnosticError } from '../../../src/engine/diagnostics.js';
import { TerraformClient, ProviderCallError, type WireDiagnostic } from '../../../src/tfclient/terraform-client.js';

const SEC_BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
/** Every variable the provider reads, blanked, so the test process's own cannot leak in. */
const NO_SEC_ENV = { SEC_ACCOUNT: '', SEC_API_KEY: '', SEC_API_SECRET: '', SEC_API_TOKEN: '', SEC_PROFILE: '', SEC_SUBACCOUNT: '', SEC_ORGANIZATION: '', SEC_API_URL: '' };

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

/** The same rules through the provider executable, as Terraform sees them: diagnostics with their paths. */
describe('sec provider configuration through the executable', function () {
  this.timeout(60_000);
  const clients: TerraformClient[] = [];
  after(async () => {
    for (const c of clients) await c.close();
  });

  async function configure(env: Record<string, string>, config: Record<string, unknown> = {}): Promise<WireDiagnostic[]> {
    const tf = await TerraformClient.start(SEC_BIN, { ...NO_SEC_ENV, HOME: home(), ...env });
    clients.push(tf);
    const err = await tf.configure(config).then(() => null, (e: unknown) => e);
    if (err === null) return [];
    expect(err).to.be.instanceOf(ProviderCallError);
    return (err as ProviderCallError).diagnostics;
  }

  it('SEC_ORGANIZATION takes true, false, 1 or 0 in any case and refuses anything else on organization', async () => {
    const credentials = { SEC_ACCOUNT: 'acme', SEC_API_TOKEN: 'TOKEN-0123456789' };
    const refused = await configure({ ...credentials, SEC_ORGANIZATION: 'maybe' });
    expect(refused).to.have.length(1);
    expect(refused[0]).to.deep.include({
      summary: 'Invalid SEC_ORGANIZATION',
      path: 'organization',
      detail: 'The SEC_ORGANIZATION environment variable, which sets `organization`, must be true, false, 1 or 0 (in any case), got "maybe".',
    });
    expect(await configure({ ...credentials, SEC_ORGANIZATION: 't' })).to.have.length(1);
    // The provider block wins: the variable is not consulted.
    expect(await configure({ ...credentials, SEC_ORGANIZATION: 'maybe' }, { organization: true })).to.deep.equal([]);
    for (const value of ['True', '0', '1', 'FALSE']) expect(await configure({ ...credentials, SEC_ORGANIZATION: value })).to.deep.equal([]);
  });
});
