/**
 * The sec emulator's report rule, resource group, team member and vulnerability exception routes,
 * over raw HTTP so these tests do not depend on the client under test: the platform's validation
 * (400 with a precise message), references, uniqueness, organization access, and what is stored.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';

interface Answer {
  status: number;
  body: any;
}

describe('sec emulator: governance routes', () => {
  let emulator: SecEmulator;
  let token: string;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const h: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}`, ...headers };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: h,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }
  const expectRefusal = (answer: Answer, status: number, message: RegExp) => {
    expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
    expect(answer.body.message).to.match(message);
  };

  beforeEach(async () => {
    emulator = await startSecEmulator({ account: 'acme', subaccounts: ['dev', 'prod'] });
    token = emulator.issueToken();
  });
  afterEach(() => emulator.close());

  describe('ReportRules', () => {
    const KEYS = [
      'pci',
      'cloudACisS3',
      'soc',
      'cloudASocRev2',
      'hipaa',
      'iso2700',
      'nist800-171Rev2',
      'nist800-53Rev4',
      'cloudBPci',
      'cloudBPciRev2',
      'cloudBCis',
      'cloudBCis12',
      'cloudBSoc',
      'cloudBSocRev2',
      'cloudBHipaa',
      'cloudBHipaaRev2',
      'cloudBIso27001',
      'cloudBK8s',
      'cloudCPci',
      'cloudCCis',
      'cloudCSoc',
      'cloudCCis131',
      'cloudATrailEvents',
      'cloudAComplianceEvents',
      'cloudCActivityLogEvents',
      'cloudCComplianceEvents',
      'cloudBAuditTrailEvents',
      'cloudBComplianceEvents',
      'clusterDistroCompliance',
      'clusterDistroComplianceEvents',
      'platformEvents',
      'agentEvents',
      'trendReport',
    ];
    let email: string;
    const rule = (over: Record<string, unknown> = {}, flags: Record<string, boolean> = {}) => ({
      type: 'Report',
      intgGuidList: [email],
      filters: { name: 'weekly', description: '', enabled: 1, severity: [2, 1, 2], resourceGroups: [] },
      reportNotificationTypes: { ...Object.fromEntries(KEYS.map((k) => [k, false])), ...flags },
      ...over,
    });

    beforeEach(async () => {
      const channel = await call('POST', '/api/v2/AlertChannels', {
        name: 'r',
        type: 'EmailUser',
        enabled: 1,
        data: { channelProps: { recipients: ['r@example.com'] } },
      });
      email = channel.body.data.intgGuid;
    });

    it('creates, reads, replaces and deletes a rule; severities are kept once, in order', async () => {
      const created = await call('POST', '/api/v2/ReportRules', rule({}, { agentEvents: true }));
      expect(created.status).to.equal(201);
      const guid = created.body.data.mcGuid;
      expect(created.body.data.filters).to.deep.include({
        name: 'weekly',
        severity: [1, 2],
        createdOrUpdatedBy: 'api-user@acme.example',
      });
      expect(emulator.get<any>('ReportRules', guid).reportNotificationTypes.agentEvents).to.equal(true);
      expect((await call('GET', `/api/v2/ReportRules/${guid}`)).body.data.mcGuid).to.equal(guid);
      const patched = await call('PATCH', `/api/v2/ReportRules/${guid}`, rule({ mcGuid: guid }, { pci: true }));
      expect(patched.status).to.equal(200);
      expect(patched.body.data.reportNotificationTypes).to.deep.include({ pci: true, agentEvents: false });
      expectRefusal(
        await call('PATCH', `/api/v2/ReportRules/${guid}`, rule({ mcGuid: 'OTHER' })),
        400,
        /does not match the path/,
      );
      expect((await call('DELETE', `/api/v2/ReportRules/${guid}`)).status).to.equal(204);
      expectRefusal(await call('GET', `/api/v2/ReportRules/${guid}`), 404, /not found/);
    });

    it('refuses missing, misspelt and out-of-range fields with their paths', async () => {
      const missing = rule();
      delete (missing.reportNotificationTypes as Record<string, boolean>).agentEvents;
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', missing),
        400,
        /body\.reportNotificationTypes\.agentEvents is required/,
      );
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', rule({}, { awsCisS3: true })),
        400,
        /reportNotificationTypes\.awsCisS3 is not a recognised field/,
      );
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', rule({ filters: { name: 'x', enabled: 1, severity: [6] } })),
        400,
        /severity\[0\] must be between 1 and 5/,
      );
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', rule({ intgGuidList: [] })),
        400,
        /intgGuidList must contain at least 1 item/,
      );
      expectRefusal(await call('POST', '/api/v2/ReportRules', rule({ mcGuid: 'MINE' })), 400, /assigned by the server/);
    });

    it('checks that channels are existing e-mail channels and resource groups exist', async () => {
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', rule({ intgGuidList: [email, 'NOPE'] })),
        400,
        /intgGuidList\[1\]: there is no alert channel "NOPE"/,
      );
      const chat = await call('POST', '/api/v2/AlertChannels', {
        name: 'c',
        type: 'Chat',
        enabled: 1,
        data: { webhookUrl: 'https://chat.example.com/hook' },
      });
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', rule({ intgGuidList: [chat.body.data.intgGuid] })),
        400,
        /of type Chat; reports go to e-mail channels/,
      );
      const withGroup = rule();
      (withGroup.filters as Record<string, unknown>).resourceGroups = ['RG_MISSING'];
      expectRefusal(
        await call('POST', '/api/v2/ReportRules', withGroup),
        400,
        /resourceGroups\[0\]: there is no resource group "RG_MISSING"/,
      );
    });
  });

  describe('ResourceGroups', () => {
    const f = (field: string, extra: Record<string, unknown> = {}) => ({
      field,
      operation: 'EQUALS',
      values: ['x'],
      ...extra,
    });
    const nest = (depth: number): Record<string, unknown> =>
      depth === 1
        ? { operator: 'AND', children: [{ filterName: 'a' }] }
        : { operator: 'OR', children: [nest(depth - 1)] };
    const group = (over: Record<string, unknown> = {}) => ({
      name: 'prod',
      resourceType: 'CLOUD_A',
      enabled: 1,
      query: {
        filters: { a: f('Account'), tag: f('Resource Tag', { key: 'team' }) },
        expression: {
          operator: 'AND',
          children: [{ filterName: 'a' }, { operator: 'OR', children: [{ filterName: 'tag' }] }],
        },
      },
      ...over,
    });

    it('creates a group with server fields, replaces it, and refuses a type change', async () => {
      const created = await call('POST', '/api/v2/ResourceGroups', group());
      expect(created.status).to.equal(201);
      const guid = created.body.data.resourceGroupGuid;
      expect(created.body.data).to.deep.include({
        isDefaultBoolean: false,
        createdBy: 'api-user@acme.example',
        description: '',
      });
      const patched = await call('PATCH', `/api/v2/ResourceGroups/${guid}`, group({ name: 'prod-2', enabled: 0 }));
      expect(patched.body.data).to.deep.include({ name: 'prod-2', enabled: 0, resourceGroupGuid: guid });
      expectRefusal(
        await call('PATCH', `/api/v2/ResourceGroups/${guid}`, group({ resourceType: 'CLOUD_B' })),
        400,
        /resourceType cannot be changed/,
      );
      expect((await call('DELETE', `/api/v2/ResourceGroups/${guid}`)).status).to.equal(204);
      expect(emulator.get('ResourceGroups', guid)).to.equal(undefined);
    });

    it('allows the top-level group and three nested levels, not four', async () => {
      const query = (depth: number) => ({ filters: { a: f('Account') }, expression: nest(depth) });
      expect((await call('POST', '/api/v2/ResourceGroups', group({ query: query(4) }))).status).to.equal(201);
      expectRefusal(
        await call('POST', '/api/v2/ResourceGroups', group({ query: query(5) })),
        400,
        /children\[0\]\.children\[0\]\.children\[0\]\.children\[0\]: groups can be nested at most 3 levels/,
      );
    });

    it('refuses empty groups, dangling or unused filter names, unknown fields, operators and operations', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [
          {
            filters: { a: f('Account') },
            expression: { operator: 'AND', children: [{ filterName: 'a' }, { operator: 'OR', children: [] }] },
          },
          /expression\.children\[1\]\.children: each group needs at least one filter or nested group/,
        ],
        [
          { filters: { a: f('Account') }, expression: { operator: 'AND', children: [{ filterName: 'b' }] } },
          /filterName "b" names no filter/,
        ],
        [
          {
            filters: { a: f('Account'), b: f('Region') },
            expression: { operator: 'AND', children: [{ filterName: 'a' }] },
          },
          /filters\["b"\] is not used in the expression/,
        ],
        [
          { filters: { a: f('Project ID') }, expression: { operator: 'AND', children: [{ filterName: 'a' }] } },
          /"Project ID" is not a field of CLOUD_A resource groups/,
        ],
        [
          { filters: { a: f('Resource Tag') }, expression: { operator: 'AND', children: [{ filterName: 'a' }] } },
          /\.key is required for the field "Resource Tag"/,
        ],
        [
          {
            filters: { a: f('Account', { operation: 'LIKE' }) },
            expression: { operator: 'AND', children: [{ filterName: 'a' }] },
          },
          /operation must be one of/,
        ],
        [
          { filters: { a: f('Account') }, expression: { operator: 'XOR', children: [{ filterName: 'a' }] } },
          /expression\.operator must be one of "AND", "OR"/,
        ],
      ];
      for (const [query, message] of cases)
        expectRefusal(await call('POST', '/api/v2/ResourceGroups', group({ query })), 400, message);
      for (const resourceType of ['AWS', 'constructor', '__proto__', 'toString'])
        expectRefusal(
          await call('POST', '/api/v2/ResourceGroups', group({ resourceType })),
          400,
          /resourceType must be one of/,
        );
    });
  });

  describe('TeamMembers', () => {
    const ORG = { 'Org-Access': 'true' };
    const account = (over: Record<string, unknown> = {}) => ({
      userName: 'ada@example.com',
      userEnabled: 1,
      props: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical', accountAdmin: false },
      ...over,
    });
    const orgMember = (over: Record<string, unknown> = {}) => ({
      userName: 'grace@example.com',
      userEnabled: 1,
      orgAdmin: false,
      orgUser: false,
      adminRoleAccounts: ['dev'],
      userRoleAccounts: ['Prod'],
      props: { firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
      ...over,
    });

    it('account members: create, unique user names, fixed user name, search, delete', async () => {
      const created = await call('POST', '/api/v2/TeamMembers', account());
      expect(created.status).to.equal(201);
      const guid = created.body.data.userGuid;
      expect(created.body.data).to.not.have.property('orgAccount');
      expectRefusal(
        await call('POST', '/api/v2/TeamMembers', account({ userName: 'ADA@example.com' })),
        409,
        /already exists/,
      );
      expectRefusal(
        await call('POST', '/api/v2/TeamMembers', account({ userName: 'ada' })),
        400,
        /userName must be a valid email address/,
      );
      expectRefusal(
        await call('PATCH', `/api/v2/TeamMembers/${guid}`, account({ userName: 'other@example.com' })),
        400,
        /userName cannot be changed/,
      );
      const patched = await call('PATCH', `/api/v2/TeamMembers/${guid}`, {
        userEnabled: 0,
        props: { firstName: 'Ada', lastName: 'L', company: 'X', accountAdmin: true },
      });
      expect(patched.body.data).to.deep.include({ userEnabled: 0 });
      expect(patched.body.data.props).to.deep.include({ lastName: 'L', accountAdmin: true });
      const found = await call('POST', '/api/v2/TeamMembers/search', {
        filters: [{ field: 'userName', expression: 'eq', value: 'Ada@Example.com' }],
      });
      expect(found.body.data.map((m: { userGuid: string }) => m.userGuid)).to.deep.equal([guid]);
      expect((await call('DELETE', `/api/v2/TeamMembers/${guid}`)).status).to.equal(204);
      expectRefusal(await call('GET', `/api/v2/TeamMembers/${guid}`), 404, /not found/);
    });

    it('organization roles need organization access, and account roles are refused with it', async () => {
      expectRefusal(
        await call('POST', '/api/v2/TeamMembers', orgMember()),
        400,
        /orgAdmin is an organization-level role and needs organization access/,
      );
      expectRefusal(
        await call('POST', '/api/v2/TeamMembers', account(), ORG),
        400,
        /accountAdmin is an account-level role/,
      );
    });

    it('organization members: per-account rows, role rules, upper-cased account names', async () => {
      const created = await call('POST', '/api/v2/TeamMembers', orgMember(), ORG);
      expect(created.status).to.equal(201);
      expect(created.body.data).to.deep.include({ orgAccount: true, orgAdmin: false, orgUser: false });
      expect(
        created.body.data.accounts.map((a: { accountName: string; admin: boolean }) => [a.accountName, a.admin]),
      ).to.deep.equal([
        ['DEV', true],
        ['PROD', false],
      ]);
      const guid = created.body.data.userGuid;
      expect(emulator.get<any>('TeamMembers', guid)).to.deep.include({
        adminRoleAccounts: ['DEV'],
        userRoleAccounts: ['PROD'],
      });
      const wide = await call(
        'PATCH',
        `/api/v2/TeamMembers/${guid}`,
        orgMember({ userName: undefined, orgAdmin: true, adminRoleAccounts: [], userRoleAccounts: [] }),
        ORG,
      );
      expect(
        wide.body.data.accounts.map((a: { accountName: string; admin: boolean }) => [a.accountName, a.admin]),
      ).to.deep.equal([
        ['ACME', true],
        ['DEV', true],
        ['PROD', true],
      ]);
      // The account view of the same member has no organization fields.
      expect((await call('GET', `/api/v2/TeamMembers/${guid}`)).body.data).to.not.have.property('orgAdmin');
      const refusals: Array<[Record<string, unknown>, RegExp]> = [
        [{ orgAdmin: true, orgUser: true, adminRoleAccounts: [], userRoleAccounts: [] }, /cannot both be true/],
        [{ orgUser: true }, /cannot be combined with orgAdmin or orgUser/],
        [{ adminRoleAccounts: [], userRoleAccounts: [] }, /needs a role/],
        [
          { adminRoleAccounts: ['dev'], userRoleAccounts: ['DEV'] },
          /userRoleAccounts\[0\]: account "DEV" is also in adminRoleAccounts/,
        ],
        [
          { adminRoleAccounts: ['staging'], userRoleAccounts: [] },
          /adminRoleAccounts\[0\]: the organization has no account "staging"/,
        ],
      ];
      for (const [over, message] of refusals)
        expectRefusal(
          await call('POST', '/api/v2/TeamMembers', orgMember({ userName: 'x@example.com', ...over }), ORG),
          400,
          message,
        );
    });
  });

  describe('VulnerabilityExceptions', () => {
    const exception = (over: Record<string, unknown> = {}) => ({
      exceptionName: 'base',
      exceptionType: 'Container',
      exceptionReason: 'Accepted Risk',
      expiryTime: '2099-01-01T00:00:00Z',
      state: 1,
      props: { description: 'd' },
      vulnerabilityCriteria: { cve: ['CVE-1'], package: [{ openssl: ['3.0.2'] }], severity: ['High'], fixable: [1] },
      resourceScope: { registry: ['r.example.com'] },
      ...over,
    });

    it('creates and replaces an exception; a kept past expiry does not block an update', async () => {
      const created = await call('POST', '/api/v2/VulnerabilityExceptions', exception());
      expect(created.status).to.equal(201);
      const guid = created.body.data.exceptionGuid;
      expect(created.body.data).to.deep.include({
        expiryTime: '2099-01-01T00:00:00.000Z',
        createdTime: created.body.data.updatedTime,
      });
      expect(created.body.data.props).to.deep.include({ createdBy: 'api-user@acme.example' });
      emulator.clock.advance(1000);
      const patched = await call(
        'PATCH',
        `/api/v2/VulnerabilityExceptions/${guid}`,
        exception({ resourceScope: undefined, exceptionReason: 'Other' }),
      );
      expect(patched.body.data).to.not.have.property('resourceScope');
      expect(patched.body.data.updatedTime).to.not.equal(patched.body.data.createdTime);
      // An expiry that has passed is kept when unchanged.
      const stored = emulator.get<any>('VulnerabilityExceptions', guid);
      emulator.put('VulnerabilityExceptions', guid, { ...stored, expiryTime: '2001-01-01T00:00:00.000Z' });
      expect(
        (
          await call(
            'PATCH',
            `/api/v2/VulnerabilityExceptions/${guid}`,
            exception({ expiryTime: '2001-01-01T00:00:00.000Z' }),
          )
        ).status,
      ).to.equal(200);
      expectRefusal(
        await call(
          'PATCH',
          `/api/v2/VulnerabilityExceptions/${guid}`,
          exception({ exceptionType: 'Host', resourceScope: undefined }),
        ),
        400,
        /exceptionType cannot be changed/,
      );
    });

    it('refuses past or malformed expiry, foreign scope keys, empty criteria and bad packages', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ expiryTime: '2001-01-01T00:00:00Z' }, /expiryTime must be in the future/],
        [{ expiryTime: 'soon' }, /expiryTime must be an RFC 3339 time/],
        // A date that does not exist is refused, not rolled into the next month.
        [{ expiryTime: '2099-02-30T00:00:00Z' }, /expiryTime must be an RFC 3339 time \(got "2099-02-30T00:00:00Z"\)/],
        [{ expiryTime: '2099-01-01T24:00:00Z' }, /expiryTime must be an RFC 3339 time/],
        [{ resourceScope: { hostname: ['h'] } }, /resourceScope\.hostname does not apply to Container exceptions/],
        [
          { exceptionType: 'Host', resourceScope: { imageTag: ['1'] } },
          /resourceScope\.imageTag does not apply to Host exceptions/,
        ],
        [{ vulnerabilityCriteria: {} }, /needs at least one of cve, package, severity or fixable/],
        [
          { vulnerabilityCriteria: { package: [{ a: ['1'], b: ['2'] }] } },
          /package\[0\] must be an object with one key/,
        ],
        [{ vulnerabilityCriteria: { severity: ['Severe'] } }, /severity\[0\] must be one of/],
        [{ exceptionReason: 'Because' }, /exceptionReason must be one of/],
        // A type named like a member every object has is no type.
        ...['constructor', '__proto__', 'toString'].map((exceptionType): [Record<string, unknown>, RegExp] => [
          { exceptionType },
          /exceptionType must be one of/,
        ]),
      ];
      for (const [over, message] of cases)
        expectRefusal(await call('POST', '/api/v2/VulnerabilityExceptions', exception(over)), 400, message);
      expect(emulator.list('VulnerabilityExceptions')).to.deep.equal([]);
    });
  });
});
