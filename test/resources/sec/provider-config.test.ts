import { expect } from 'chai';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  resolveSecSettings,
  normaliseAccount,
  type SecProviderSettings,
} from '../../../src/resources/sec/provider-config.js';
import { Diagnostics, DiagnosticError } from '../../../packages/framework/src/engine/diagnostics/index.js';
import { TerraformClient, ProviderCallError, type WireDiagnostic } from '../../../src/tfclient/terraform-client.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { startSecEmulator } from '../../../src/emulators/sec/index.js';

const SEC_BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
/** Every variable the provider reads, blanked, so the test process's own cannot leak in. */
const NO_SEC_ENV = {
  SEC_ACCOUNT: '',
  SEC_API_KEY: '',
  SEC_API_SECRET: '',
  SEC_API_TOKEN: '',
  SEC_PROFILE: '',
  SEC_SUBACCOUNT: '',
  SEC_ORGANIZATION: '',
  SEC_API_URL: '',
};

const empty: SecProviderSettings = {
  account: null,
  api_key: null,
  api_secret: null,
  api_token: null,
  profile: null,
  subaccount: null,
  organization: null,
};

function home(profileToml?: string, mode = 0o600): string {
  const dir = mkdtempSync(join(tmpdir(), 'sec-home-'));
  if (profileToml !== undefined) {
    writeFileSync(join(dir, '.sec.toml'), profileToml);
    chmodSync(join(dir, '.sec.toml'), mode);
  }
  return dir;
}

async function failure(fn: () => Promise<unknown>): Promise<DiagnosticError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof DiagnosticError) return err;
    throw err;
  }
  throw new Error('expected a DiagnosticError');
}

describe('sec provider configuration', () => {
  it('lets the provider block win over the environment, per setting', async () => {
    const s = await resolveSecSettings(
      { ...empty, account: 'blockacct', api_key: 'blockkey' },
      { SEC_ACCOUNT: 'envacct', SEC_API_KEY: 'envkey', SEC_API_SECRET: 'envsecret', HOME: home() },
      new Diagnostics(),
    );
    expect(s).to.deep.include({
      account: 'blockacct',
      apiKey: 'blockkey',
      apiSecret: 'envsecret',
      baseUrl: 'https://blockacct.sec-platform.example',
      organization: false,
    });
  });

  it('does not read the profile when static credentials are complete', async () => {
    const h = home('this is not toml');
    const s = await resolveSecSettings(empty, { SEC_ACCOUNT: 'a', SEC_API_TOKEN: 'tok', HOME: h }, new Diagnostics());
    expect(s).to.deep.include({ account: 'a', apiToken: 'tok' });
  });

  it('fills what is missing from the named profile, and SEC_API_URL overrides the base URL', async () => {
    const h = home(
      '[default]\naccount = "d"\n[prod]\naccount = "acme.eu"\napi_key = "k"\napi_secret = "s"\nsubaccount = "team"\n',
    );
    const s = await resolveSecSettings(
      { ...empty, profile: 'prod' },
      { HOME: h, SEC_API_URL: 'http://127.0.0.1:9' },
      new Diagnostics(),
    );
    expect(s).to.deep.include({
      account: 'acme.eu',
      apiKey: 'k',
      apiSecret: 's',
      subaccount: 'team',
      baseUrl: 'http://127.0.0.1:9',
    });
  });

  it('explains a missing named profile, and missing credentials with where they could come from', async () => {
    const noFile = home();
    const named = await failure(() =>
      resolveSecSettings({ ...empty, profile: 'prod' }, { HOME: noFile }, new Diagnostics()),
    );
    expect(named).to.deep.include({ summary: "Profile 'prod' not found", path: [{ attr: 'profile' }] });
    expect(named.detail).to.include(`The profile file ${join(noFile, '.sec.toml')} does not exist.`);
    const otherProfile = await failure(() =>
      resolveSecSettings(
        { ...empty, profile: 'nope' },
        { HOME: home('[default]\naccount = "a"\n') },
        new Diagnostics(),
      ),
    );
    expect(otherProfile.summary).to.equal("Profile 'nope' not found");
    const h = home('[default]\naccount = "a"\n');
    const missing = await failure(() => resolveSecSettings(empty, { HOME: h }, new Diagnostics()));
    expect(missing).to.deep.include({ summary: 'Missing credentials', path: [{ attr: 'api_key' }] });
    expect(missing.detail).to.equal(
      `Set \`api_key\` and \`api_secret\` (environment SEC_API_KEY and SEC_API_SECRET), or \`api_token\` (SEC_API_TOKEN), in the provider block or the environment, or in the [default] profile of ${join(h, '.sec.toml')}.`,
    );
  });

  it('takes an unnamed [default] that is not in the file as empty, and says where the setting could go', async () => {
    const h = home('[prod]\naccount = "p"\n');
    const err = await failure(() => resolveSecSettings({ ...empty, api_token: 'tok' }, { HOME: h }, new Diagnostics()));
    expect(err).to.deep.include({ summary: 'Missing account', path: [{ attr: 'account' }] });
    expect(err.detail).to.equal(
      `Set \`account\` in the provider block or the SEC_ACCOUNT environment variable, or add a [default] profile that sets \`account\` to ${join(h, '.sec.toml')}.`,
    );
  });

  it('an empty value in the provider block counts as unset, and a missing setting says the block has it empty', async () => {
    const h = home();
    const block = { ...empty, account: '', api_token: 'tok' };
    const settings = await resolveSecSettings(block, { HOME: h, SEC_ACCOUNT: 'envacct' }, new Diagnostics());
    expect(settings).to.deep.include({ account: 'envacct' });
    const err = await failure(() => resolveSecSettings(block, { HOME: h }, new Diagnostics()));
    expect(err).to.deep.include({ summary: 'Missing account', path: [{ attr: 'account' }] });
    expect(err.detail).to.match(/^`account` is empty in the provider block\. Set `account` in the provider block or /);
  });

  it('warns about a profile file other users can read', async () => {
    const diags = new Diagnostics();
    await resolveSecSettings(
      empty,
      { HOME: home('[default]\naccount = "a"\napi_key = "k"\napi_secret = "s"\n', 0o644) },
      diags,
    );
    expect(diags.items.map((d) => d.summary)).to.deep.equal(['Profile file is readable by other users']);
  });

  it('never puts a secret into its error messages', async () => {
    const err = await failure(() =>
      resolveSecSettings({ ...empty, api_secret: 'TOP-SECRET-VALUE' }, { HOME: home() }, new Diagnostics()),
    );
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

  async function configure(
    env: Record<string, string>,
    config: Record<string, unknown> = {},
  ): Promise<WireDiagnostic[]> {
    const tf = await TerraformClient.start(SEC_BIN, { ...NO_SEC_ENV, HOME: home(), ...env });
    clients.push(tf);
    const err = await tf.configure(config).then(
      () => null,
      (e: unknown) => e,
    );
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
      detail:
        'The SEC_ORGANIZATION environment variable, which sets `organization`, must be true, false, 1 or 0 (in any case), got "maybe".',
    });
    expect(await configure({ ...credentials, SEC_ORGANIZATION: 't' })).to.have.length(1);
    // The provider block wins: the variable is not consulted.
    expect(await configure({ ...credentials, SEC_ORGANIZATION: 'maybe' }, { organization: true })).to.deep.equal([]);
    for (const value of ['True', '0', '1', 'FALSE'])
      expect(await configure({ ...credentials, SEC_ORGANIZATION: value })).to.deep.equal([]);
  });
  const SECRET = 'TOP-SECRET-0123456789abcdef';

  it('names the missing setting, its variable and its path, and says the profile file could be created', async () => {
    const h = home();
    const file = join(h, '.sec.toml');
    const account = await configure({ HOME: h, SEC_API_TOKEN: SECRET });
    expect(account).to.have.length(1);
    expect(account[0]).to.deep.include({
      summary: 'Missing account',
      path: 'account',
      detail: `Set \`account\` in the provider block or the SEC_ACCOUNT environment variable, or create the profile file ${file} with a [default] profile that sets \`account\`.`,
    });
    const secret = await configure({ HOME: h, SEC_ACCOUNT: 'acme' }, { api_key: SECRET });
    expect(secret[0]).to.deep.include({
      summary: 'Missing API secret',
      path: 'api_secret',
      detail: `\`api_key\` is set but \`api_secret\` is not. Set \`api_secret\` in the provider block or the SEC_API_SECRET environment variable, or create the profile file ${file} with a [default] profile that sets \`api_secret\`; or use \`api_token\` (SEC_API_TOKEN) instead of the key pair.`,
    });
    const key = await configure({ HOME: h, SEC_ACCOUNT: 'acme', SEC_API_SECRET: SECRET });
    expect(key[0]).to.deep.include({ summary: 'Missing API key', path: 'api_key' });
    expect(key[0]!.detail).to.include('the SEC_API_KEY environment variable');
    const none = await configure({ HOME: h, SEC_ACCOUNT: 'acme' });
    expect(none[0]).to.deep.include({ summary: 'Missing credentials', path: 'api_key' });
    expect(none[0]!.detail).to.match(/SEC_API_KEY and SEC_API_SECRET\), or `api_token` \(SEC_API_TOKEN\)/);
    for (const d of [...account, ...secret, ...key, ...none]) expect(`${d.summary} ${d.detail}`).to.not.include(SECRET);
  });

  it('says a profile file that exists but cannot be read cannot be read, not that it should be created', async () => {
    const dir = home();
    mkdirSync(join(dir, '.sec.toml'));
    const directory = await configure({ HOME: dir, SEC_ACCOUNT: 'acme' });
    expect(directory).to.have.length(1);
    expect(directory[0]).to.deep.include({
      summary: 'Cannot read the profile file',
      detail: `${join(dir, '.sec.toml')} exists but cannot be read: it is a directory. Fix that, or give account and credentials in the provider block or the SEC_* environment variables, which make the provider skip the file.`,
    });

    const loop = home();
    symlinkSync(join(loop, '.sec.toml'), join(loop, '.sec.toml'));
    expect((await configure({ HOME: loop, SEC_ACCOUNT: 'acme' }))[0]!.detail).to.include(
      'cannot be read: its symbolic links form a loop.',
    );
  });

  it('says an unreadable profile file is permission denied (as a user other than root)', async function () {
    if (process.getuid?.() === 0) this.skip(); // root reads any file
    const h = home('[default]\naccount = "acme"\n', 0o000);
    const denied = await configure({ HOME: h });
    expect(denied[0]).to.deep.include({ summary: 'Cannot read the profile file' });
    expect(denied[0]!.detail).to.include('cannot be read: permission denied.');
  });

  it('gives the line and column of a TOML error, and never the text around it', async () => {
    const h = home(`[default]\naccount = "acme"\napi_key = "${SECRET}\napi_secret = "x"\n`);
    const invalid = await configure({ HOME: h });
    expect(invalid).to.have.length(1);
    expect(invalid[0]).to.deep.include({
      summary: 'Invalid profile file',
      detail: `${join(h, '.sec.toml')} is not valid TOML: line 3, column 39: control characters are not allowed in strings.`,
    });
    expect(invalid[0]!.detail).to.not.include(SECRET);
  });
  it('says in one sentence that a plaintext API behind an https:// URL did not answer TLS', async () => {
    const emulator = await startSecEmulator({ account: 'acme' });
    try {
      const url = emulator.url.replace('http://', 'https://');
      const tf = await TerraformClient.start(SEC_BIN, {
        ...NO_SEC_ENV,
        HOME: home(),
        ...secProviderEnv(emulator),
        SEC_API_URL: url,
      });
      clients.push(tf);
      await tf.configure({});
      const err = await tf
        .readData('sec_user_profile', tf.config(tf.dataSourceSchema('sec_user_profile').block, {}))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).to.be.instanceOf(ProviderCallError);
      const diagnostics = (err as ProviderCallError).diagnostics;
      expect(diagnostics).to.have.length(1);
      expect(diagnostics[0]!.detail).to.equal(
        `POST /api/v2/access/tokens: the server at ${url} did not answer TLS, so it may be a plaintext endpoint: check the API URL (plain http:// is accepted for loopback hosts only)`,
      );
      expect(emulator.requests).to.have.length(0);
    } finally {
      await emulator.close();
    }
  });
});
