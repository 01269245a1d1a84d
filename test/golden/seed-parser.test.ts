/** The seed parser on both seed documents (the secSeed and vdbSeed fixtures), and on small inputs. */
import { expect } from 'chai';
import { parseSeed, parseFieldList, formatSeedType, type ParsedSeed, type SeedField } from './seed-parser.js';
import { readFixture } from '../support/fixtures.js';

const field = (fields: SeedField[], name: string): SeedField => {
  const f = fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name} in ${fields.map((x) => x.name).join(', ')}`);
  return f;
};
const summary = (f: SeedField) =>
  `${f.name}${f.required ? '*' : ''} ${formatSeedType(f.type)}${f.secret ? ' secret' : ''}${f.default !== undefined ? ` =${JSON.stringify(f.default)}` : ''} ${f.role}`;

describe('seed parser: compact field lists', () => {
  it('applies group annotations to the run of unannotated fields before them', () => {
    const fs = parseFieldList('imageIds (array; sha256 hashes), imageTags, namespaces (arrays of string)');
    expect(fs.map(summary)).to.deep.equal([
      'imageIds array of unknown unspecified',
      'imageTags array of string unspecified',
      'namespaces array of string unspecified',
    ]);
    const b = parseFieldList('cis, pci (all boolean, default false); extra (boolean, no default stated)');
    expect(b.map(summary)).to.deep.equal([
      'cis boolean =false unspecified',
      'pci boolean =false unspecified',
      'extra boolean unspecified',
    ]);
  });
  it('reads inline objects, stars, secrets and deprecation, and drops prose', () => {
    const fs = parseFieldList('key*, value* (secret). Repeated entries are allowed.');
    expect(fs.map(summary)).to.deep.equal(['key* string unspecified', 'value* string secret unspecified']);
    const g = parseFieldList('operator*, filters (array); has no nested groups');
    expect(g.map((f) => f.name)).to.deep.equal(['operator', 'filters']);
    const o = parseFieldList('fieldValueMaps (deprecated; array of {key*, values* array of string})');
    expect(o[0]!.deprecated).to.equal(true);
    expect(formatSeedType(o[0]!.type)).to.equal('array of {key*, values*}');
  });
});

describe('seed parser: sec seed', () => {
  let seed: ParsedSeed;
  before(() => {
    seed = parseSeed(readFixture('secSeed'));
  });

  it('reads the package, version and provider method', () => {
    expect(seed.packageName).to.equal('sec');
    expect(seed.version).to.equal('2.2.0');
    expect(seed.providerMethods).to.deep.equal({ terraformConfig: 'pulumi:providers:sec/terraformConfig' });
  });

  it('reads AgentAccessToken with its 9 fields', () => {
    const r = seed.resources.AgentAccessToken!;
    expect(r.token).to.equal('sec:index/agentAccessToken:AgentAccessToken');
    expect(r.tokenStated).to.equal(true);
    expect(r.fields.map(summary)).to.deep.equal([
      'name* string input',
      'description string input',
      'enabled boolean =true input',
      'os string input',
      'agentAccessTokenId* string inout',
      'token* string secret output',
      'createdTime* string output',
      'lastUpdatedTime* string output',
      'version* string output',
    ]);
  });

  it('lists every alert channel of the seed with the common fields', () => {
    const channels = Object.keys(seed.resources).filter((n) => n.startsWith('AlertChannel'));
    expect(channels).to.have.length(14);
    const email = seed.resources.AlertChannelEmail!;
    expect(summary(field(email.fields, 'recipients'))).to.equal('recipients* array of string input');
    expect(summary(field(email.fields, 'alertChannelEmailId'))).to.equal('alertChannelEmailId* string output');
    expect(field(email.fields, 'name').alwaysInOutput).to.equal(true);
    expect(field(email.fields, 'name').required).to.equal(false);
    expect(email.fields).to.have.length(10);
    expect(seed.resources.AlertChannelChat!.partial).to.equal(true);
    expect(email.partial).to.equal(false);
  });

  it('reads defaults, types and the per-variant columns of the tracker table', () => {
    const m = seed.resources.AlertChannelMetrics!;
    expect(field(m.fields, 'metricsService').default).to.equal('Logs Detail');
    expect(field(m.fields, 'apiKey').secret).to.equal(true);
    const cloud = seed.resources.AlertChannelTrackerCloud!.fields.map((f) => f.name);
    const server = seed.resources.AlertChannelTrackerServer!.fields.map((f) => f.name);
    expect(cloud).to.include('apiToken').and.not.include('password');
    expect(server).to.include('password').and.not.include('apiToken');
    expect(summary(field(seed.resources.AlertChannelObserv!.fields, 'accountId'))).to.equal('accountId* number input');
    expect(field(seed.resources.AlertChannelObserv!.fields, 'insertKey').notSecret).to.equal(true);
    expect(summary(field(seed.resources.AlertChannelCloudAObjectStore!.fields, 'credentials'))).to.equal(
      'credentials* AlertChannelObjectStoreCredentials input',
    );
  });

  it('reads the nested types table', () => {
    const t = seed.types;
    expect(t.AlertChannelCloudBPubSubCredentials!.fields.map(summary)).to.deep.equal([
      'clientEmail* string unspecified',
      'clientId* string unspecified',
      'privateKey* string secret unspecified',
      'privateKeyId* string secret unspecified',
    ]);
    expect(field(t.IntegrationCloudCAgentlessScanningCredentials!.fields, 'clientSecret').notSecret).to.equal(true);
    expect(t.IntegrationRegistryACredentials!.fields.map(summary)).to.deep.equal([
      'accessKeyId string unspecified',
      'externalId string unspecified',
      'roleArn string unspecified',
      'secretAccessKey string secret unspecified',
    ]);
    expect(summary(field(t.IntegrationCloudACtOrgAccountMappings!.fields, 'mappings'))).to.equal(
      'mappings* array of IntegrationCloudACtOrgAccountMappingsMapping unspecified',
    );
    expect(field(t.PolicyExceptionConstraint!.fields, 'fieldValueMaps').deprecated).to.equal(true);
    expect(field(t.ReportRuleDailyComplianceReports!.fields, 'platform').default).to.equal(false);
    expect(field(t.ReportRuleDailyComplianceReports!.fields, 'cloudCCompliance').default).to.equal(undefined);
    expect(t.ReportRuleCloudAComplianceReports!.fields).to.have.length(8);
    expect(summary(field(t.PolicyAlerting!.fields, 'enabled'))).to.equal('enabled boolean =true unspecified');
    // "ResourceGroupGroupFilter and the same type at each deeper level".
    for (const n of [
      'ResourceGroupGroupFilter',
      'ResourceGroupGroupGroupFilter',
      'ResourceGroupGroupGroupGroupFilter',
      'ResourceGroupGroupGroupGroupGroupFilter',
    ]) {
      expect(t, n).to.have.property(n);
    }
    expect(t.ResourceGroupGroupGroupGroupGroup!.fields.map((f) => f.name)).to.deep.equal(['operator', 'filters']);
    expect(Object.keys(t).filter((n) => n.endsWith('LimitByLabel'))).to.have.length(7);
  });

  it('derives the user profile function from its result type', () => {
    expect(seed.functions).to.deep.equal({
      getUserProfile: {
        name: 'getUserProfile',
        token: 'sec:index/getUserProfile:getUserProfile',
        resultTypes: ['getUserProfileAccount'],
      },
    });
    expect(seed.types.getUserProfileAccount!.fields.map(summary)).to.deep.equal([
      'accountName* string unspecified',
      'admin* boolean unspecified',
      'custGuid* string unspecified',
      'userEnabled* boolean unspecified',
      'userGuid* string unspecified',
    ]);
    expect(seed.types.getUserProfileAccount!.output).to.equal(true);
  });

  it('reads the configuration variables and the provider outputs', () => {
    expect(seed.config.allOptional).to.equal(true);
    expect(seed.config.variables.map(summary)).to.deep.equal([
      'account string unspecified',
      'apiKey string unspecified',
      'apiSecret string unspecified',
      'apiToken string unspecified',
      'profile string unspecified',
      'organization boolean unspecified',
      'subaccount string unspecified',
    ]);
    expect(seed.config.providerOutputs).to.deep.equal([
      'account',
      'apiKey',
      'apiSecret',
      'apiToken',
      'profile',
      'subaccount',
    ]);
    expect(seed.config.providerInputOnly).to.deep.equal(['organization']);
  });
});

describe('seed parser: vdb seed', () => {
  let seed: ParsedSeed;
  before(() => {
    seed = parseSeed(readFixture('vdbSeed'));
  });

  it('reads the resources', () => {
    expect(seed.packageName).to.equal('vdb');
    expect(seed.version).to.equal('1.19.2');
    expect(Object.keys(seed.resources)).to.deep.equal([
      'AccountsCluster',
      'AccountsDatabaseApiKeyV2',
      'AccountsAuthKey',
      'AccountsBackupSchedule',
      'AccountsHybridCloudEnvironment',
      'AccountsManualBackup',
    ]);
    const c = seed.resources.AccountsCluster!;
    expect(c.tokenStated).to.equal(true);
    expect(c.fields.map(summary)).to.deep.equal([
      'accountId string unspecified',
      'cloudProvider* string input',
      'cloudRegion* string input',
      'configuration* AccountsClusterConfiguration input',
      'name string unspecified',
      'labels array of {key*, value*} unspecified',
      'deleteBackupsOnDestroy boolean unspecified',
      'privateRegionId string unspecified',
      'createdAt* string output',
      'markedForDeletionAt* string output',
      'statuses* array of AccountsClusterStatus output',
      'url* string output',
    ]);
    expect(field(c.fields, 'privateRegionId').deprecated).to.equal(true);
    expect(seed.resources.AccountsAuthKey!.deprecated).to.equal(true);
    expect(seed.resources.AccountsManualBackup!.partial).to.equal(true);
    expect(seed.resources.AccountsDatabaseApiKeyV2!.token).to.equal(
      'vdb:index/accountsDatabaseApiKeyV2:AccountsDatabaseApiKeyV2',
    );
    const key = seed.resources.AccountsDatabaseApiKeyV2!;
    expect(key.fields.filter((f) => f.role === 'output').map((f) => f.name)).to.deep.equal([
      'createdAt',
      'createdByEmail',
      'key',
      'postfix',
    ]);
    expect(field(key.fields, 'key').secret).to.equal(false);
    expect(summary(field(key.fields, 'globalAccessRule'))).to.equal('globalAccessRule {accessType*} unspecified');
    expect(summary(field(seed.resources.AccountsHybridCloudEnvironment!.fields, 'bootstrapCommands'))).to.equal(
      'bootstrapCommands* array of string secret output',
    );
  });

  it('reads the cluster configuration type with its sub-table and inline objects', () => {
    const t = seed.types.AccountsClusterConfiguration!;
    expect(t.fields).to.have.length(18);
    expect(field(t.fields, 'version').alwaysInOutput).to.equal(true);
    const node = field(t.fields, 'nodeConfiguration');
    expect(formatSeedType(node.type)).to.equal('{packageId*, resourceConfigurations}');
    const db = field(t.fields, 'databaseConfiguration');
    expect(formatSeedType(db.type)).to.equal('{logLevel, collection, inference, service, storage, tls}');
    const service = db.type.kind === 'object' ? field(db.type.fields!, 'service') : undefined;
    const svcFields = service?.type.kind === 'object' ? service.type.fields! : [];
    expect(field(svcFields, 'enableTls').alwaysInOutput).to.equal(true);
    expect(field(svcFields, 'forceIncludeJwtRbac').deprecated).to.equal(true);
    expect(formatSeedType(field(svcFields, 'apiKey').type)).to.equal('{secretKey*, secretName*}');
  });

  it('reads output types with every field required', () => {
    const s = seed.types.AccountsClusterStatus!;
    expect(s.output).to.equal(true);
    expect(s.fields.every((f) => f.required)).to.equal(true);
    const res = field(s.fields, 'resources');
    expect(formatSeedType(res.type)).to.equal('array of {cpus*, disks*, rams*}');
    const cpus =
      res.type.kind === 'array' && res.type.items.kind === 'object' ? field(res.type.items.fields!, 'cpus') : undefined;
    expect(formatSeedType(cpus!.type)).to.equal('array of {additional*, available*, base*, complimentary*, reserved*}');
    const env = seed.types.AccountsHybridCloudEnvironmentStatus!;
    expect(env.fields.every((f) => f.required)).to.equal(true);
    expect(summary(field(env.fields, 'numberOfNodes'))).to.equal('numberOfNodes* number unspecified');
    expect(formatSeedType(field(env.fields, 'storageClasses').type)).to.equal(
      'array of {allowVolumeExpansion*, default*, name*, parameters*, provisioner*, reclaimPolicy*}',
    );
    const conf = seed.types.AccountsHybridCloudEnvironmentConfiguration!;
    expect(summary(field(conf.fields, 'namespace'))).to.equal('namespace* string unspecified');
    expect(field(conf.fields, 'lastModifiedAt').alwaysInOutput).to.equal(true);
    const info = seed.types.AccountsManualBackupClusterInfo!;
    expect(info.fields.map((f) => f.name)).to.deep.equal([
      'cloudProviderId',
      'cloudProviderRegionId',
      'name',
      'restorePackageId',
      'configurations',
      'resourcesSummaries',
    ]);
    expect(summary(field(info.fields, 'restorePackageId'))).to.equal('restorePackageId* string unspecified');
    // "(read-only copy of the cluster configuration, with each nested object returned as a list)".
    expect(summary(field(info.fields, 'configurations'))).to.equal('configurations* array of object unspecified');
    expect(seed.types.AccountsRolePermission!.fields.map(summary)).to.deep.equal([
      'value* string unspecified',
      'category string unspecified',
    ]);
  });

  it('reads the data source result types and derives the functions', () => {
    expect(Object.keys(seed.functions).sort()).to.deep.equal([
      'getAccountsAuthKeys',
      'getAccountsBackupSchedules',
      'getAccountsClusters',
      'getAccountsDatabaseApiKeysV2',
      'getBookingPackages',
    ]);
    expect(seed.functions.getAccountsDatabaseApiKeysV2!.resultTypes).to.deep.equal(['getAccountsDatabaseApiKeysV2Key']);
    const p = seed.types.getBookingPackagesPackage!;
    expect(p.fields).to.have.length(9);
    expect(p.fields.every((f) => f.required)).to.equal(true);
    expect(summary(field(p.fields, 'unitIntPricePerHour'))).to.equal('unitIntPricePerHour* number unspecified');
    const cluster = seed.types.getAccountsClustersCluster!;
    expect(cluster.fields).to.have.length(13);
    // "the same nested shapes as the cluster resource, with nested objects returned as lists".
    expect(summary(field(cluster.fields, 'deleteBackupsOnDestroy'))).to.equal(
      'deleteBackupsOnDestroy* boolean unspecified',
    );
    expect(summary(field(cluster.fields, 'configurations'))).to.equal('configurations* array of object unspecified');
    expect(summary(field(cluster.fields, 'labels'))).to.equal('labels* array of object unspecified');
    expect(summary(field(cluster.fields, 'statuses'))).to.equal('statuses* array of object unspecified');
    expect(summary(field(cluster.fields, 'url'))).to.equal('url* string unspecified');
  });

  it('reads the configuration', () => {
    expect(seed.config.allOptional).to.equal(false);
    expect(seed.config.variables.map(summary)).to.deep.equal([
      'apiKey* string secret input',
      'apiUrl string unspecified',
      'accountId string unspecified',
      'insecure boolean =false unspecified',
    ]);
    expect(seed.providerMethods).to.deep.equal({ terraformConfig: 'pulumi:providers:vdb/terraformConfig' });
  });
});
