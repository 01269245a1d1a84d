/**
 * The first sec slice under the real Terraform CLI: apply, empty re-plan, in-place update, import
 * into an emptied state, drift, destroy — checking what the emulator holds after each step.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { REPO_ROOT, Workspace, requireTerraform } from './terraform.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';

describe('acceptance: sec slice under real Terraform', function () {
  this.timeout(300_000);
  let emulator: SecEmulator;
  let ws: Workspace;

  before(async function () {
    requireTerraform(this);
    emulator = await startSecEmulator();
    ws = Workspace.fromExample(join(REPO_ROOT, 'examples', 'sec'), secProviderEnv(emulator));
  });

  after(async () => {
    ws?.dispose();
    await emulator?.close();
  });

  const channels = () =>
    emulator.list('AlertChannels') as {
      intgGuid: string;
      name: string;
      type: string;
      enabled: number;
      data: { channelProps: { recipients: string[] } };
    }[];
  const tokens = () =>
    emulator.list('AgentAccessTokens') as {
      accessToken: string;
      tokenAlias: string;
      tokenEnabled: number;
      props: { description: string; os: string };
    }[];
  const v1 = [
    '-var',
    'recipients=["oncall@example.com","security@example.com"]',
    '-var',
    'token_description=Agents in the CI fleet',
  ];
  const v2 = ['-var', 'recipients=["security@example.com"]', '-var', 'token_description=Agents in the release fleet'];

  let guid = '';
  let token = '';

  it('creates the channel and the token, and reads the profile', async () => {
    await ws.expect(['apply', '-auto-approve', ...v1]);
    expect(channels()).to.have.length(1);
    const ch = channels()[0]!;
    expect(ch).to.include({ name: 'security-team', type: 'EmailUser', enabled: 1 });
    expect(ch.data.channelProps.recipients).to.deep.equal(['oncall@example.com', 'security@example.com']);
    expect(tokens()).to.have.length(1);
    expect(tokens()[0]).to.deep.include({ tokenAlias: 'ci-fleet', tokenEnabled: 1 });
    expect(tokens()[0]!.props).to.deep.include({ description: 'Agents in the CI fleet', os: 'linux' });
    guid = ch.intgGuid;
    token = tokens()[0]!.accessToken;
    const state = await ws.state();
    const chState = state.get('sec_alert_channel_email.security')!;
    expect(chState.values).to.include({
      id: guid,
      intg_guid: guid,
      enabled: true,
      test_integration: true,
      type_name: 'EmailUser',
      org_level: false,
    });
    const tokState = state.get('sec_agent_access_token.ci')!;
    expect(tokState.values).to.include({ id: 'ci-fleet', token, os: 'linux', enabled: true });
    expect(tokState.sensitive_values).to.have.property('token', true);
    expect(state.get('data.sec_user_profile.me')!.values).to.have.property('username').that.is.a('string').and.not
      .empty;
    // The platform's test endpoint was called for the new channel.
    expect(
      emulator.requests.some((r) => r.method === 'POST' && r.path === `/api/v2/AlertChannels/${guid}/test`),
    ).to.equal(true);
  });

  it('re-plans with no changes', async () => {
    await ws.expect(['plan', '-detailed-exitcode', ...v1], 0);
  });

  it('updates arguments in place', async () => {
    await ws.expect(['apply', '-auto-approve', ...v2]);
    expect(channels()).to.have.length(1);
    expect(channels()[0]!.intgGuid).to.equal(guid);
    expect(channels()[0]!.data.channelProps.recipients).to.deep.equal(['security@example.com']);
    expect(tokens()).to.have.length(1);
    expect(tokens()[0]!.accessToken).to.equal(token);
    expect(tokens()[0]!.props.description).to.equal('Agents in the release fleet');
    await ws.expect(['plan', '-detailed-exitcode', ...v2], 0);
  });

  it('imports into an emptied state and re-plans with no changes', async () => {
    await ws.expect(['state', 'rm', 'sec_alert_channel_email.security', 'sec_agent_access_token.ci']);
    await ws.expect(['import', ...v2, 'sec_alert_channel_email.security', guid]);
    await ws.expect(['import', ...v2, 'sec_agent_access_token.ci', token]);
    const state = await ws.state();
    expect(state.get('sec_alert_channel_email.security')!.values).to.include({ id: guid, name: 'security-team' });
    expect(state.get('sec_agent_access_token.ci')!.values).to.include({ id: 'ci-fleet', token });
    await ws.expect(['plan', '-detailed-exitcode', ...v2], 0);
    expect(channels()).to.have.length(1);
    expect(tokens()).to.have.length(1);
  });

  it('detects objects deleted behind its back and recreates them', async () => {
    emulator.remove('AlertChannels', guid);
    const plan = await ws.expect(['plan', '-detailed-exitcode', '-no-color', ...v2], 2);
    expect(plan.stdout).to.match(/sec_alert_channel_email\.security will be created/);
    await ws.expect(['apply', '-auto-approve', ...v2]);
    expect(channels()).to.have.length(1);
    expect(channels()[0]!.intgGuid).to.not.equal(guid);
    guid = channels()[0]!.intgGuid;
    await ws.expect(['plan', '-detailed-exitcode', ...v2], 0);
  });

  it('rejects bad values at plan time with the attribute path', async () => {
    const r = await ws.expect(
      ['plan', '-no-color', '-var', 'recipients=["not-an-address"]', '-var', 'token_description=x'],
      1,
    );
    expect(r.stderr).to.match(/Invalid value for "recipients"/);
    expect(r.stderr).to.match(/recipients/);
    expect(r.stderr).to.match(/e-mail address/);
  });

  it('destroys everything', async () => {
    await ws.expect(['destroy', '-auto-approve', ...v2]);
    expect(channels()).to.have.length(0);
    // Tokens cannot be deleted: destroy disables the token and frees its alias.
    expect(tokens()).to.have.length(1);
    expect(tokens()[0]!.tokenEnabled).to.equal(0);
    expect(tokens()[0]!.tokenAlias).to.match(/^ci-fleet-[a-z0-9]{5}-deleted$/);
    expect((await ws.state()).size).to.equal(0);
  });
});
