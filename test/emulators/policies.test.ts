/**
 * The emulator's alert profiles, policies and policy exceptions over raw HTTP (independent of the
 * client under test): the built-in data it starts with, validation as the platform does it
 * (required fields, allowed values, reserved names, references), and what each call stores.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';

interface Answer {
  status: number;
  body: any;
}

const SEVERITIES_LOWER = ['critical', 'high', 'medium', 'low', 'info'];

describe('sec emulator: alert profiles, policies, exceptions', () => {
  let emulator: SecEmulator;
  let token: string;

  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** Expects a 4xx answer whose message matches. */
  async function refused(status: number, message: RegExp, method: string, path: string, body?: unknown): Promise<void> {
    const answer = await call(method, path, body);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
    expect(answer.body.message).to.match(message);
  }

  beforeEach(async () => {
    emulator = await startSecEmulator({ account: 'acme' });
    const login = await fetch(`${emulator.url}/api/v2/access/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SEC-UAKS': emulator.apiSecret },
      body: JSON.stringify({ keyId: emulator.apiKey, expiryTime: 3600 }),
    });
    token = ((await login.json()) as { token: string }).token;
  });
  afterEach(() => emulator.close());

  const template = {
    name: 'Violation',
    eventName: 'Exposed',
    description: 'Resource {{RESOURCE_ID}}',
    subject: '{{_OCCURRENCE}} in {{ACCOUNT_ID}}',
  };
  const profile = { alertProfileId: 'CUSTOM_A', extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE', alerts: [template] };
  const policy = {
    policyType: 'Violation',
    queryId: 'SEC_Global_CloudA_Trail_TrailChange',
    title: 'T',
    enabled: true,
    description: 'D',
    remediation: 'R',
    severity: 'High',
    limit: 10,
    evalFrequency: 'Daily',
    alertEnabled: true,
    alertProfile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.CFG_CLOUD_A_Violation',
    tags: ['t1'],
  };

  describe('alert profiles', () => {
    it('starts with built-in profiles that custom ones extend, inheriting their fields', async () => {
      const list = await call('GET', '/api/v2/AlertProfiles');
      expect(list.body.data.map((p: { alertProfileId: string }) => p.alertProfileId)).to.include.members([
        'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
        'SEC_HE_FILES_DEFAULT_PROFILE',
      ]);
      const created = await call('POST', '/api/v2/AlertProfiles', profile);
      expect(created.status).to.equal(201);
      expect(created.body.data).to.deep.include({
        alertProfileId: 'CUSTOM_A',
        extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
        alerts: [template],
      });
      expect(created.body.data.fields.map((f: { name: string }) => f.name)).to.include('ACCOUNT_ID');
      expect((await call('GET', '/api/v2/AlertProfiles/CUSTOM_A')).body.data.alerts).to.deep.equal([template]);
    });

    it('has the documented built-in profiles, each extending the base profile and listing its fields', async () => {
      const list = (await call('GET', '/api/v2/AlertProfiles')).body.data as {
        alertProfileId: string;
        extends: string;
        fields: { name: string }[];
        alerts: { name: string }[];
      }[];
      const byId = new Map(list.map((p) => [p.alertProfileId, p]));
      expect([...byId.keys()]).to.include.members([
        'SEC_BaseProfile',
        'SEC_CFG_CLOUD_A_DEFAULT_PROFILE',
        'SEC_CFG_CLOUD_B_DEFAULT_PROFILE',
        'SEC_CFG_CLOUD_C_DEFAULT_PROFILE',
        'SEC_CFG_CLOUD_D_DEFAULT_PROFILE',
        'SEC_CloudATrail_Alerts',
        'SEC_HE_FILES_DEFAULT_PROFILE',
      ]);
      for (const p of list.filter((p) => p.alertProfileId !== 'SEC_BaseProfile')) {
        expect(p.extends, p.alertProfileId).to.equal('SEC_BaseProfile');
        expect(
          p.fields.map((f) => f.name),
          p.alertProfileId,
        ).to.include.members(['_OCCURRENCE', '_POLICY_TITLE']);
      }
      const cloudB = byId.get('SEC_CFG_CLOUD_B_DEFAULT_PROFILE')!;
      expect(cloudB.fields.map((f) => f.name)).to.include.members([
        'PROJECT_ID',
        'RESOURCE_ID',
        'RESOURCE_TYPE',
        'RESOURCE_REGION',
      ]);
      expect(cloudB.alerts.map((a) => a.name)).to.include('Violation');
      expect(byId.get('SEC_CFG_CLOUD_A_DEFAULT_PROFILE')!.alerts.map((a) => a.name)).to.have.members([
        'CFG_CLOUD_A_Violation',
        'CFG_CLOUD_A_NewViolation',
        'CFG_CLOUD_A_PolicyChanged',
      ]);
      expect(byId.get('SEC_CloudATrail_Alerts')!.alerts.map((a) => a.name)).to.include.members([
        'CloudATrailDefaultAlert_CloudAResource',
        'VPCChange_CloudAResource',
      ]);
      // Upstream's alert-profile example, translated: extend the Cloud B profile with a region in the text.
      const upstreamShape = {
        alertProfileId: 'CUSTOM_PROFILE_TERRAFORM_TEST',
        extends: 'SEC_CFG_CLOUD_B_DEFAULT_PROFILE',
        alerts: [
          {
            name: 'Violation',
            eventName: 'Platform Configuration Cloud B Violation Alert',
            subject: '{{_OCCURRENCE}} violation detected in project {{PROJECT_ID}}',
            description:
              '{{_OCCURRENCE}} violation for Cloud B Resource {{RESOURCE_TYPE}}:{{RESOURCE_ID}} in project {{PROJECT_ID}} region {{RESOURCE_REGION}}',
          },
        ],
      };
      const created = await call('POST', '/api/v2/AlertProfiles', upstreamShape);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data.fields.map((f: { name: string }) => f.name)).to.include('RESOURCE_REGION');
    });

    it('refuses reserved names, unknown bases, unknown fields, duplicate templates, missing fields and taken names', async () => {
      await refused(400, /reserved/, 'POST', '/api/v2/AlertProfiles', { ...profile, alertProfileId: 'SEC_MINE' });
      await refused(400, /no alert profile "NOPE" to extend/, 'POST', '/api/v2/AlertProfiles', {
        ...profile,
        extends: 'NOPE',
      });
      await refused(400, /\{\{PROJECT_ID\}\} is not a field/, 'POST', '/api/v2/AlertProfiles', {
        ...profile,
        alerts: [{ ...template, subject: '{{PROJECT_ID}}' }],
      });
      await refused(400, /used twice/, 'POST', '/api/v2/AlertProfiles', { ...profile, alerts: [template, template] });
      await refused(400, /body\.alerts\[0\]\.eventName is required/, 'POST', '/api/v2/AlertProfiles', {
        ...profile,
        alerts: [{ ...template, eventName: undefined }],
      });
      await refused(400, /at least 1 item/, 'POST', '/api/v2/AlertProfiles', { ...profile, alerts: [] });
      await refused(400, /letters, digits/, 'POST', '/api/v2/AlertProfiles', { ...profile, alertProfileId: 'A.B' });
      expect((await call('POST', '/api/v2/AlertProfiles', profile)).status).to.equal(201);
      await refused(409, /already exists/, 'POST', '/api/v2/AlertProfiles', profile);
    });

    it('changes only templates, never built-ins, and deletes custom profiles', async () => {
      await call('POST', '/api/v2/AlertProfiles', profile);
      await refused(400, /extends cannot be changed/, 'PATCH', '/api/v2/AlertProfiles/CUSTOM_A', {
        extends: 'SEC_HE_FILES_DEFAULT_PROFILE',
        alerts: [template],
      });
      const patched = await call('PATCH', '/api/v2/AlertProfiles/CUSTOM_A', {
        alerts: [{ ...template, eventName: 'Changed' }],
      });
      expect(patched.status).to.equal(200);
      expect(
        emulator.get<{ alerts: { eventName: string }[] }>('AlertProfiles', 'CUSTOM_A')!.alerts[0]!.eventName,
      ).to.equal('Changed');
      await refused(
        400,
        /built-in alert profile .* cannot be changed/,
        'PATCH',
        '/api/v2/AlertProfiles/SEC_HE_FILES_DEFAULT_PROFILE',
        { alerts: [template] },
      );
      await refused(400, /cannot be deleted/, 'DELETE', '/api/v2/AlertProfiles/SEC_HE_FILES_DEFAULT_PROFILE');
      expect((await call('DELETE', '/api/v2/AlertProfiles/CUSTOM_A')).status).to.equal(204);
      await refused(404, /not found/, 'GET', '/api/v2/AlertProfiles/CUSTOM_A');
    });
  });

  describe('policies', () => {
    it('starts with the built-in catalogue, every policy upstream names among it', async () => {
      const list = (await call('GET', '/api/v2/Policies')).body.data as Record<string, any>[];
      expect(list.length).to.be.greaterThan(50);
      // Named by upstream's managed-policies and policy-exception examples, tests and docs.
      expect(list.map((p) => p.policyId)).to.include.members([
        'platform-global-1',
        'platform-global-2',
        'platform-global-10',
        'platform-global-39',
        'platform-global-46',
        'platform-global-73',
        'platform-global-87',
      ]);
      expect(new Set(list.map((p) => p.policyType))).to.deep.equal(new Set(['Violation', 'Compliance', 'Manual']));
      expect(
        list.every(
          (p) => p.policyId.startsWith('platform-global-') && Array.isArray(p.exceptionConfiguration.constraintFields),
        ),
      ).to.equal(true);
      const byId = new Map(list.map((p) => [p.policyId as string, p]));
      // As the platform's documentation shows 1 and 75.
      expect(byId.get('platform-global-1')).to.deep.include({
        title: 'Virtual Private Cloud (VPC) Change',
        policyType: 'Violation',
        severity: 'medium',
        enabled: true,
        alertEnabled: true,
        evalFrequency: 'Hourly',
        queryId: 'SEC_Global_CloudA_Trail_VPCChange',
        alertProfile: 'SEC_CloudATrail_Alerts.VPCChange_CloudAResource',
      });
      expect(byId.get('platform-global-75')).to.deep.include({
        policyType: 'Compliance',
        severity: 'low',
        enabled: false,
        alertEnabled: false,
      });
      expect(
        byId
          .get('platform-global-39')!
          .exceptionConfiguration.constraintFields.map((c: { fieldKey: string }) => c.fieldKey),
      ).to.deep.equal(['accountIds', 'arns', 'resourceNames', 'resourceTags']);
      expect(byId.get('platform-global-87')!.exceptionConfiguration.constraintFields).to.deep.include({
        fieldKey: 'resourceNames',
        dataType: 'String',
        multiValue: false,
      });
    });

    it('keeps its catalogue consistent: every alert profile reference resolves, every manual policy runs no query', async () => {
      const policies = (await call('GET', '/api/v2/Policies')).body.data as Record<string, any>[];
      const profiles = new Map(
        ((await call('GET', '/api/v2/AlertProfiles')).body.data as Record<string, any>[]).map((p) => [
          p.alertProfileId as string,
          p,
        ]),
      );
      const templatesOf = (id: string): string[] => {
        const p = profiles.get(id);
        return p
          ? [...p.alerts.map((a: { name: string }) => a.name), ...(p.extends ? templatesOf(p.extends) : [])]
          : [];
      };
      for (const p of policies) {
        expect(SEVERITIES_LOWER, p.policyId).to.include(p.severity);
        if (p.policyType === 'Manual') {
          expect(p, p.policyId).to.deep.include({ queryId: '', alertProfile: '' });
          expect(p.exceptionConfiguration.constraintFields, p.policyId).to.deep.equal([]);
          continue;
        }
        expect(p.queryId, p.policyId).to.match(/^SEC_Global_Cloud[ABC]_/);
        const [profile, template] = (p.alertProfile as string).split('.');
        expect(templatesOf(profile!), `${p.policyId} → ${p.alertProfile}`).to.include(template);
        for (const c of p.exceptionConfiguration.constraintFields)
          expect(['String', 'Number', 'KVTagPair'], p.policyId).to.include(c.dataType);
      }
    });

    it('forms ids from the tenant and the suffix (or a number), stores severity lower-case and applies defaults', async () => {
      const withSuffix = await call('POST', '/api/v2/Policies', { ...policy, policyId: 'abcd-1234' });
      expect(withSuffix.status).to.equal(201);
      expect(withSuffix.body.data).to.deep.include({
        policyId: 'acme-abcd-1234',
        severity: 'high',
        owner: 'api-user@acme.example',
      });
      await refused(409, /already exists/, 'POST', '/api/v2/Policies', { ...policy, policyId: 'abcd-1234' });
      const { limit: _limit, evalFrequency: _eval, ...minimal } = policy;
      const numbered = await call('POST', '/api/v2/Policies', minimal);
      expect(numbered.body.data.policyId).to.match(/^acme-\d+$/);
      expect(numbered.body.data).to.deep.include({ limit: 1000, evalFrequency: 'Hourly' });
    });

    it('validates required fields, allowed values, the suffix and the alert profile reference', async () => {
      await refused(400, /body\.title is required/, 'POST', '/api/v2/Policies', { ...policy, title: undefined });
      await refused(400, /severity must be one of critical, high, medium, low, info/, 'POST', '/api/v2/Policies', {
        ...policy,
        severity: 'severe',
      });
      await refused(400, /policyType must be one of "Violation", "Compliance"/, 'POST', '/api/v2/Policies', {
        ...policy,
        policyType: 'Manual',
      });
      await refused(400, /evalFrequency must be one of "Hourly", "Daily"/, 'POST', '/api/v2/Policies', {
        ...policy,
        evalFrequency: 'Weekly',
      });
      await refused(400, /limit must be between 1 and 5000/, 'POST', '/api/v2/Policies', { ...policy, limit: 5001 });
      await refused(400, /policyId must be lower-case/, 'POST', '/api/v2/Policies', { ...policy, policyId: 'ABC' });
      await refused(400, /no alert profile "NOPE"/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: 'NOPE.Violation',
      });
      await refused(400, /has no template "Nope"/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE.Nope',
      });
      await refused(400, /no alert profile "no-dot"/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: 'no-dot',
      });
      await refused(400, /`<profile>` or `<profile>\.<template>`/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: 'SEC_CloudATrail_Alerts.',
      });
      await refused(400, /`<profile>` or `<profile>\.<template>`/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: '.Violation',
      });
      await refused(400, /SEC_BaseProfile has no template to alert with/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: 'SEC_BaseProfile',
      });
      await refused(400, /alertProfile is required when alertEnabled is true/, 'POST', '/api/v2/Policies', {
        ...policy,
        alertProfile: '',
      });
      expect(
        emulator.list('Policies').filter((p: any) => !String(p.policyId).startsWith('platform-global')),
      ).to.deep.equal([]);
    });

    it("accepts a bare alert profile, as upstream's policy example writes it, and stores it as given", async () => {
      const created = await call('POST', '/api/v2/Policies', {
        ...policy,
        queryId: 'SEC_Global_CloudA_Trail_TrailChange',
        alertEnabled: false,
        alertProfile: 'SEC_CloudATrail_Alerts',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(emulator.get('Policies', created.body.data.policyId)).to.deep.include({
        alertEnabled: false,
        alertProfile: 'SEC_CloudATrail_Alerts',
      });
      // A bare custom profile is as good: it inherits the templates of the profile it extends.
      await call('POST', '/api/v2/AlertProfiles', profile);
      const custom = await call('PATCH', `/api/v2/Policies/${created.body.data.policyId}`, {
        ...policy,
        alertEnabled: true,
        alertProfile: 'CUSTOM_A',
      });
      expect(custom.status, JSON.stringify(custom.body)).to.equal(200);
      expect(custom.body.data).to.deep.include({ alertEnabled: true, alertProfile: 'CUSTOM_A' });
    });

    it('updates in place but never the id, and protects built-in policies', async () => {
      const id = (await call('POST', '/api/v2/Policies', { ...policy, policyId: 'upd' })).body.data.policyId;
      const patched = await call('PATCH', `/api/v2/Policies/${id}`, {
        ...policy,
        title: 'T2',
        severity: 'LOW',
        alertEnabled: false,
        alertProfile: '',
      });
      expect(patched.body.data).to.deep.include({
        title: 'T2',
        severity: 'low',
        alertEnabled: false,
        alertProfile: '',
      });
      await refused(400, /cannot be changed/, 'PATCH', `/api/v2/Policies/${id}`, { policyId: 'other' });
      await refused(400, /built-in policy; only enabled, severity/, 'PATCH', '/api/v2/Policies/platform-global-1', {
        title: 'Mine now',
      });
      expect(
        (await call('PATCH', '/api/v2/Policies/platform-global-1', { enabled: false })).body.data.enabled,
      ).to.equal(false);
      await refused(400, /cannot be deleted/, 'DELETE', '/api/v2/Policies/platform-global-1');
    });

    it('bulk-updates all or nothing', async () => {
      const before = emulator.get<{ enabled: boolean; severity: string }>('Policies', 'platform-global-2')!;
      await refused(404, /policy "platform-global-9999" not found/, 'PATCH', '/api/v2/Policies', [
        { policyId: 'platform-global-2', enabled: false, severity: 'Low' },
        { policyId: 'platform-global-9999', enabled: true, severity: 'high' },
      ]);
      expect(emulator.get('Policies', 'platform-global-2')).to.deep.include({
        enabled: before.enabled,
        severity: before.severity,
      });
      await refused(400, /listed twice/, 'PATCH', '/api/v2/Policies', [
        { policyId: 'platform-global-2' },
        { policyId: 'platform-global-2' },
      ]);
      await refused(400, /body\[0\]\.severity must be one of/, 'PATCH', '/api/v2/Policies', [
        { policyId: 'platform-global-2', severity: 'urgent' },
      ]);
      const ok = await call('PATCH', '/api/v2/Policies', [
        { policyId: 'platform-global-2', enabled: false, severity: 'Low' },
      ]);
      expect(ok.status).to.equal(200);
      expect(ok.body.data[0]).to.deep.include({ policyId: 'platform-global-2', enabled: false, severity: 'low' });
    });
  });

  describe('exceptions', () => {
    let policyId: string;
    const exception = {
      description: 'Sandbox',
      constraints: [
        { fieldKey: 'accountIds', fieldValues: ['111'] },
        {
          fieldKey: 'resourceTags',
          fieldValues: [
            { key: 'env', value: ['dev'] },
            { key: 'owner', value: 'qa' },
          ],
        },
      ],
    };
    beforeEach(async () => {
      policyId = (await call('POST', '/api/v2/Policies', { ...policy, policyId: 'exc' })).body.data.policyId;
    });

    it('creates, reads, updates and lists exceptions under their policy', async () => {
      const created = await call('POST', `/api/v2/Exceptions?policyId=${policyId}`, exception);
      expect(created.status).to.equal(201);
      const id = created.body.data.exceptionId;
      expect(created.body.data).to.deep.include({ description: 'Sandbox', constraints: exception.constraints });
      expect(created.body.data).to.not.have.property('policyId');
      const patched = await call('PATCH', `/api/v2/Exceptions/${id}?policyId=${policyId}`, {
        ...exception,
        description: 'Changed',
      });
      expect(patched.body.data.description).to.equal('Changed');
      expect(
        (await call('GET', `/api/v2/Exceptions?policyId=${policyId}`)).body.data.map(
          (e: { exceptionId: string }) => e.exceptionId,
        ),
      ).to.deep.equal([id]);
      await refused(404, /not found/, 'GET', `/api/v2/Exceptions/${id}?policyId=platform-global-1`);
    });

    it('needs an existing policy and constraints the policy defines, with values of their data type', async () => {
      await refused(400, /policyId is required/, 'POST', '/api/v2/Exceptions', exception);
      await refused(404, /policy "acme-nope" not found/, 'POST', '/api/v2/Exceptions?policyId=acme-nope', exception);
      await refused(400, /no exception constraint "projectIds"/, 'POST', `/api/v2/Exceptions?policyId=${policyId}`, {
        ...exception,
        constraints: [{ fieldKey: 'projectIds', fieldValues: ['p'] }],
      });
      await refused(
        400,
        /fieldValues\[0\] must be a non-empty string/,
        'POST',
        `/api/v2/Exceptions?policyId=${policyId}`,
        { ...exception, constraints: [{ fieldKey: 'accountIds', fieldValues: [{ key: 'a', value: 'b' }] }] },
      );
      await refused(400, /must be an object \{key, value\}/, 'POST', `/api/v2/Exceptions?policyId=${policyId}`, {
        ...exception,
        constraints: [{ fieldKey: 'resourceTags', fieldValues: ['env'] }],
      });
      await refused(400, /constrained twice/, 'POST', `/api/v2/Exceptions?policyId=${policyId}`, {
        ...exception,
        constraints: [exception.constraints[0], exception.constraints[0]],
      });
      await refused(
        400,
        /constraints must contain at least 1 item/,
        'POST',
        `/api/v2/Exceptions?policyId=${policyId}`,
        { ...exception, constraints: [] },
      );
      await refused(400, /description is required/, 'POST', `/api/v2/Exceptions?policyId=${policyId}`, {
        constraints: exception.constraints,
      });
      expect(emulator.list('Exceptions')).to.deep.equal([]);
    });

    it("follows each built-in policy's exception configuration: none for activity and manual policies, numeric ids, single values", async () => {
      await refused(
        400,
        /policy platform-global-1 takes no exceptions/,
        'POST',
        '/api/v2/Exceptions?policyId=platform-global-1',
        exception,
      );
      await refused(
        400,
        /policy platform-global-31 takes no exceptions/,
        'POST',
        '/api/v2/Exceptions?policyId=platform-global-31',
        exception,
      );
      // Upstream's current example on 39: a wildcard account and a tag with its values.
      const on39 = await call('POST', '/api/v2/Exceptions?policyId=platform-global-39', {
        description: 'Policy Exception Created via Terraform',
        constraints: [
          { fieldKey: 'accountIds', fieldValues: ['*'] },
          { fieldKey: 'resourceTags', fieldValues: [{ key: 'test', value: ['test', 'test'] }] },
        ],
      });
      expect(on39.status, JSON.stringify(on39.body)).to.equal(201);
      await refused(
        400,
        /platform-global-39 has no exception constraint "invalid"; its constraints: accountIds, arns, resourceNames, resourceTags/,
        'POST',
        '/api/v2/Exceptions?policyId=platform-global-39',
        {
          description: 'd',
          constraints: [{ fieldKey: 'invalid', fieldValues: ['*'] }],
        },
      );
      const cloudB = (fieldValues: string[]) => ({
        description: 'd',
        constraints: [{ fieldKey: 'organizations', fieldValues }],
      });
      expect(
        (await call('POST', '/api/v2/Exceptions?policyId=platform-global-270', cloudB(['123456789012', '98*']))).status,
      ).to.equal(201);
      await refused(
        400,
        /must be a numeric id, or a pattern of digits and "\*" \(organizations holds numeric ids; got "my-org"\)/,
        'POST',
        '/api/v2/Exceptions?policyId=platform-global-270',
        cloudB(['my-org']),
      );
      await refused(
        400,
        /resourceNames takes a single value/,
        'POST',
        '/api/v2/Exceptions?policyId=platform-global-87',
        { description: 'd', constraints: [{ fieldKey: 'resourceNames', fieldValues: ['a', 'b'] }] },
      );
    });

    it('removes the exceptions of a deleted policy', async () => {
      const id = (await call('POST', `/api/v2/Exceptions?policyId=${policyId}`, exception)).body.data.exceptionId;
      expect((await call('DELETE', `/api/v2/Policies/${policyId}`)).status).to.equal(204);
      expect(emulator.get('Exceptions', id)).to.equal(undefined);
    });
  });
});
