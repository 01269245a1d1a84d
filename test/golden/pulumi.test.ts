/**
 * The Pulumi package schema derived from our Terraform schemas, as pulumi-terraform-bridge's dynamic
 * bridge would derive it: naming, pluralization, flattening and `id` rules on small hand-made
 * providers. The real providers are compared with their seeds in sec-seed.test.ts and vdb-seed.test.ts.
 */
import { expect } from 'chai';
import type { ProviderDescription } from '../pulumi-model/description.js';
import type { Schema } from '../../packages/framework/src/schema/block.js';
import { pluralize, singularize, goExpand } from '../../packages/framework/src/schema/pulumi/inflector.js';
import {
  camelCaseTerraformName,
  computeTokens,
  inferResourcePrefix,
  makeStandardToken,
  terraformToPulumiName,
  titleCase,
} from '../../packages/framework/src/schema/pulumi/naming.js';
import { buildPulumiSchema, buildPulumiSchemaWithReport, genDocComment } from '../pulumi-model/schema.js';
import {
  attr,
  bool,
  nested,
  num,
  one,
  schema,
  str,
  strList,
  strMap,
  strSet,
  listOf,
  objectOf,
  STRING,
  NUMBER,
  type Field,
} from '../support/schema-builders.js';
import { DYNAMIC } from '../../packages/framework/src/schema/cty-type.js';

function provider(
  resources: Record<string, Record<string, Field>>,
  extra: Partial<ProviderDescription> = {},
): ProviderDescription {
  return {
    name: 'sec',
    version: '2.2.0',
    provider: schema({}),
    resources: Object.fromEntries(Object.entries(resources).map(([k, v]) => [k, schema(v)])),
    dataSources: {},
    ...extra,
  };
}

/** Nested type and function tokens (`pkg:index/Name:Name`, `pkg:index/getX:getX`). */
const T = (name: string) => `sec:index/${name}:${name}`;
/** Resource tokens (`pkg:index/lowerFirst:Name`). */
const R = (name: string) => `sec:index/${name[0]!.toLowerCase()}${name.slice(1)}:${name}`;
const ref = (name: string) => ({ $ref: `#/types/sec:index/${name}:${name}` });

describe('Pulumi mapping: inflector (github.com/pulumi/inflector)', () => {
  // The upstream package's own test table, plus the words the seeds depend on.
  const plural: Array<[string, string]> = [
    ['categoria', 'categorias'],
    ['house', 'houses'],
    ['powerhouse', 'powerhouses'],
    ['Bus', 'Buses'],
    ['bus', 'buses'],
    ['menu', 'menus'],
    ['news', 'news'],
    ['food_menu', 'food_menus'],
    ['Menu', 'Menus'],
    ['FoodMenu', 'FoodMenus'],
    ['quiz', 'quizzes'],
    ['matrix_row', 'matrix_rows'],
    ['matrix', 'matrices'],
    ['vertex', 'vertices'],
    ['index', 'indices'],
    ['Alias', 'Aliases'],
    ['Aliases', 'Aliases'],
    ['Media', 'Media'],
    ['NodeMedia', 'NodeMedia'],
    ['alumnus', 'alumni'],
    ['bacillus', 'bacilli'],
    ['cactus', 'cacti'],
    ['focus', 'foci'],
    ['fungus', 'fungi'],
    ['nucleus', 'nuclei'],
    ['octopus', 'octopuses'],
    ['radius', 'radii'],
    ['stimulus', 'stimuli'],
    ['syllabus', 'syllabi'],
    ['terminus', 'termini'],
    ['virus', 'viri'],
    ['person', 'people'],
    ['people', 'people'],
    ['glove', 'gloves'],
    ['crisis', 'crises'],
    ['tax', 'taxes'],
    ['wave', 'waves'],
    ['bureau', 'bureaus'],
    ['cafe', 'cafes'],
    ['roof', 'roofs'],
    ['foe', 'foes'],
    ['cookie', 'cookies'],
    ['wolf', 'wolves'],
    ['thief', 'thieves'],
    ['potato', 'potatoes'],
    ['hero', 'heroes'],
    ['buffalo', 'buffalo'],
    ['tooth', 'teeth'],
    ['goose', 'geese'],
    ['foot', 'feet'],
    ['objective', 'objectives'],
    ['specie', 'species'],
    ['species', 'species'],
    ['', ''],
    // Seed words.
    ['filter', 'filters'],
    ['group', 'groups'],
    ['value', 'values'],
    ['mapping', 'mappings'],
    ['alert', 'alerts'],
    ['policy', 'policies'],
    ['package', 'packages'],
    ['constraint', 'constraints'],
    ['limit_by_label', 'limit_by_labels'],
    ['identifier_tag', 'identifier_tags'],
    ['field_values_map', 'field_values_maps'],
    ['org_account_mappings', 'org_account_mappings'],
    ['status', 'statuses'],
    ['scalability_info', 'scalability_infos'],
    ['cpu', 'cpus'],
    ['node_selector', 'node_selectors'],
    ['configuration', 'configurations'],
    ['global_access_rule', 'global_access_rules'],
    ['resources_summary', 'resources_summaries'],
    ['cluster_info', 'cluster_infos'],
    ['key', 'keys'],
    ['recipients', 'recipients'],
    ['cloud_a_accounts', 'cloud_a_accounts'],
    // Go's `$1s` names a group "1s", which does not exist: the Go package pluralizes "hive" to "".
    ['hive', ''],
    ['archive', 'arc'],
  ];
  const singular: Array<[string, string]> = [
    ['categorias', 'categoria'],
    ['menus', 'menu'],
    ['news', 'news'],
    ['food_menus', 'food_menu'],
    ['Menus', 'Menu'],
    ['FoodMenus', 'FoodMenu'],
    ['houses', 'house'],
    ['powerhouses', 'powerhouse'],
    ['quizzes', 'quiz'],
    ['Buses', 'Bus'],
    ['buses', 'bus'],
    ['matrix_rows', 'matrix_row'],
    ['matrices', 'matrix'],
    ['vertices', 'vertex'],
    ['indices', 'index'],
    ['Aliases', 'Alias'],
    ['Alias', 'Alias'],
    ['Media', 'Media'],
    ['NodeMedia', 'NodeMedia'],
    ['alumni', 'alumnus'],
    ['bacilli', 'bacillus'],
    ['cacti', 'cactus'],
    ['foci', 'focus'],
    ['fungi', 'fungus'],
    ['nuclei', 'nucleus'],
    ['octopuses', 'octopus'],
    ['radii', 'radius'],
    ['stimuli', 'stimulus'],
    ['syllabi', 'syllabus'],
    ['termini', 'terminus'],
    ['viri', 'virus'],
    ['people', 'person'],
    ['gloves', 'glove'],
    ['doves', 'dove'],
    ['lives', 'life'],
    ['knives', 'knife'],
    ['wolves', 'wolf'],
    ['slaves', 'slave'],
    ['shelves', 'shelf'],
    ['taxis', 'taxi'],
    ['taxes', 'tax'],
    ['Taxes', 'Tax'],
    ['AwesomeTaxes', 'AwesomeTax'],
    ['faxes', 'fax'],
    ['waxes', 'wax'],
    ['niches', 'niche'],
    ['waves', 'wave'],
    ['bureaus', 'bureau'],
    ['genetic_analyses', 'genetic_analysis'],
    ['doctor_diagnoses', 'doctor_diagnosis'],
    ['parentheses', 'parenthesis'],
    ['Causes', 'Cause'],
    ['colossuses', 'colossus'],
    ['diagnoses', 'diagnosis'],
    ['bases', 'basis'],
    ['analyses', 'analysis'],
    ['curves', 'curve'],
    ['cafes', 'cafe'],
    ['roofs', 'roof'],
    ['foes', 'foe'],
    ['databases', 'database'],
    ['cookies', 'cookie'],
    ['thieves', 'thief'],
    ['potatoes', 'potato'],
    ['heroes', 'hero'],
    ['buffalos', 'buffalo'],
    ['babies', 'baby'],
    ['teeth', 'tooth'],
    ['geese', 'goose'],
    ['feet', 'foot'],
    ['objectives', 'objective'],
    ['species', 'species'],
    ['caches', 'cache'],
    ['content_caches', 'content_cache'],
    ['ContentCaches', 'ContentCache'],
    ['', ''],
    // Seed words (singularized Pulumi property names become nested type names).
    ['filters', 'filter'],
    ['orgAccountMappings', 'orgAccountMapping'],
    ['limitByLabels', 'limitByLabel'],
    ['policies', 'policy'],
    ['statuses', 'status'],
    ['scalabilityInfos', 'scalabilityInfo'],
    ['resourcesSummaries', 'resourcesSummary'],
    ['capabilities', 'capability'],
    ['componentStatuses', 'componentStatus'],
    ['storageClasses', 'storageClass'],
    ['availableAdditionalResources', 'availableAdditionalResource'],
    ['accounts', 'account'],
    ['keys', 'key'],
    ['packages', 'package'],
    ['tls', 'tl'],
    ['fieldValuesMaps', 'fieldValuesMap'],
  ];
  it('pluralizes like the Go package', () => {
    for (const [i, o] of plural) expect(pluralize(i), i).to.equal(o);
  });
  it('singularizes like the Go package', () => {
    for (const [i, o] of singular) expect(singularize(i), i).to.equal(o);
  });
  it('expands replacement templates like Go regexp.Expand', () => {
    expect(goExpand('${1}${2}tatuses', ['Status', 'S'])).to.equal('Statuses');
    expect(goExpand('$1s', ['hive', 'hive'])).to.equal('');
    expect(goExpand('$$1', ['x', 'y'])).to.equal('$1');
    expect(goExpand('a$', ['x'])).to.equal('a$');
  });
  it('writes the first letter of the whole input in irregular words (a quirk of the Go package)', () => {
    expect(pluralize('Person')).to.equal('People');
    expect(singularize('Children')).to.equal('Child');
  });
});

describe('Pulumi mapping: names and tokens', () => {
  it('camel-cases Terraform names, keeping leading and one trailing underscore', () => {
    expect(camelCaseTerraformName('storage_account_id')).to.equal('storageAccountId');
    expect(camelCaseTerraformName('_private_thing')).to.equal('_privateThing');
    expect(camelCaseTerraformName('trailing_')).to.equal('trailing_');
    expect(camelCaseTerraformName('cloud_a_accounts')).to.equal('cloudAAccounts');
    expect(camelCaseTerraformName('nist_800_53_rev4')).to.equal('nist80053Rev4');
    expect(camelCaseTerraformName('group', true)).to.equal('Group');
  });

  it('pluralizes lists and sets whose max_items is not 1, unless the plural is a sibling', () => {
    const sib = new Map([
      ['filter', { collection: true, maxItems: 0 }],
      ['credentials', { collection: true, maxItems: 1 }],
      ['rule', { collection: true, maxItems: 0 }],
      ['rules', { collection: false, maxItems: 0 }],
      ['name', { collection: false, maxItems: 0 }],
    ]);
    expect(terraformToPulumiName('filter', sib)).to.equal('filters');
    expect(terraformToPulumiName('credentials', sib)).to.equal('credentials');
    expect(terraformToPulumiName('rule', sib)).to.equal('rule');
    expect(terraformToPulumiName('name', sib)).to.equal('name');
  });

  it('strips the shared prefix and camel-cases resource and data source tokens', () => {
    expect(inferResourcePrefix(['sec_agent_access_token', 'sec_alert_channel_email'])).to.equal('sec');
    expect(inferResourcePrefix(['sec_a', 'other_b'])).to.equal('');
    const t = computeTokens(
      'vdb',
      'vdb',
      ['vdb_accounts_database_api_key_v2', 'vdb_accounts_cluster'],
      ['vdb_accounts_clusters'],
    );
    expect(t.resources.get('vdb_accounts_database_api_key_v2')).to.equal(
      'vdb:index/accountsDatabaseApiKeyV2:AccountsDatabaseApiKeyV2',
    );
    expect(t.resources.get('vdb_accounts_cluster')).to.equal('vdb:index/accountsCluster:AccountsCluster');
    expect(t.dataSources.get('vdb_accounts_clusters')).to.equal('vdb:index/getAccountsClusters:getAccountsClusters');
    const s = computeTokens('sec', 'sec', ['sec_alert_channel_cloud_a_event_bus'], ['sec_user_profile']);
    expect(s.resources.get('sec_alert_channel_cloud_a_event_bus')).to.equal(
      'sec:index/alertChannelCloudAEventBus:AlertChannelCloudAEventBus',
    );
    expect(s.dataSources.get('sec_user_profile')).to.equal('sec:index/getUserProfile:getUserProfile');
  });

  it('spells out a leading digit, de-duplicates case-insensitively and renames a Provider resource', () => {
    expect(makeStandardToken('op', 'index', '1passwordItem')).to.equal('op:index/onePasswordItem:OnePasswordItem');
    const t = computeTokens('x', 'x', ['x_foo_bar', 'x_foobar', 'x_provider'], []);
    expect(t.resources.get('x_foo_bar')).to.equal('x:index/fooBar:FooBar');
    expect(t.resources.get('x_foobar')).to.equal('x:index/foobarV2:FoobarV2');
    expect(t.resources.get('x_provider')).to.equal('x:index/xProvider:XProvider');
  });

  it('title-cases nested type name segments', () => {
    expect(titleCase('orgAccountMappings')).to.equal('OrgAccountMappings');
    expect(titleCase('cis131')).to.equal('Cis131');
  });
});

describe('Pulumi mapping: schema rules', () => {
  it('renames an optional+computed `id` to <resource>Id (input and required output), never emits `id`', () => {
    const s = buildPulumiSchema(
      provider({
        sec_alert_channel_email: {
          id: str('OC'),
          name: str('R'),
          recipients: strList('R'),
        },
        sec_policy: { id: str('C'), title: str('R') },
      }),
    );
    const r = s.resources[R('AlertChannelEmail')]!;
    expect(r.properties).to.have.property('alertChannelEmailId');
    expect(r.properties).to.not.have.property('id');
    expect(r.inputProperties).to.have.property('alertChannelEmailId');
    expect(r.required).to.include('alertChannelEmailId');
    expect(r.requiredInputs).to.deep.equal(['recipients']);
    expect(r.stateInputs!.properties).to.have.property('alertChannelEmailId');
    // A computed-only string id is the Pulumi id: no property at all.
    const p = s.resources[R('Policy')]!;
    expect(Object.keys(p.properties!)).to.deep.equal(['title']);
    expect(p.stateInputs!.properties).to.not.have.property('id');
  });

  it('renames a required `id` and takes the next free candidate name', () => {
    const s = buildPulumiSchema(provider({ sec_thing: { id: str('R'), thing_id: str('O') } }));
    const r = s.resources[R('Thing')]!;
    expect(r.inputProperties).to.have.keys('secThingId', 'thingId');
    expect(r.requiredInputs).to.deep.equal(['secThingId']);
  });

  it('renames `urn` and `pulumi`', () => {
    const s = buildPulumiSchema(provider({ sec_thing: { id: str('C'), urn: str('O'), pulumi: str('O') } }));
    expect(s.resources[R('Thing')]!.inputProperties).to.have.keys('secUrn', 'pulumiInfo');
  });

  it('flattens LIST blocks with max_items 1 into a single object of the singular type', () => {
    const s = buildPulumiSchema(
      provider({
        sec_alert_channel_cloud_b_pub_sub: {
          id: str('OC'),
          name: str('R'),
          credentials: one(
            {
              client_id: str('R'),
              client_email: str('R'),
              private_key: str('R', { sensitive: true, description: 'The key.' }),
              private_key_id: str('R', { sensitive: true }),
            },
            true,
            'Service account key.',
          ),
        },
      }),
    );
    const r = s.resources[R('AlertChannelCloudBPubSub')]!;
    expect(r.inputProperties!.credentials).to.deep.equal({
      ...ref('AlertChannelCloudBPubSubCredentials'),
      description: 'Service account key.',
    });
    expect(r.requiredInputs).to.include('credentials');
    expect(r.required).to.include('credentials');
    const t = s.types[T('AlertChannelCloudBPubSubCredentials')]!;
    expect(t.type).to.equal('object');
    expect(t.required).to.deep.equal(['clientEmail', 'clientId', 'privateKey', 'privateKeyId']);
    expect(t.properties!.privateKey).to.deep.equal({ type: 'string', description: 'The key.\n', secret: true });
    expect(t.properties!.privateKeyId!.secret).to.equal(true);
    expect(t.properties!.clientId!.secret).to.equal(undefined);
  });

  it('pluralizes list blocks and singularizes their nested type names, recursively', () => {
    const filter = { filter_name: str('R'), field: str('R'), operation: str('R'), value: strList('R'), key: str('O') };
    const { schema: s, warnings } = buildPulumiSchemaWithReport(
      provider({
        sec_resource_group: {
          id: str('C'),
          name: str('R'),
          group: nested(
            'set',
            {
              operator: str('R'),
              filter: nested('set', filter),
              group: nested('set', { operator: str('R'), filter: nested('set', filter) }),
            },
            { min: 1 },
          ),
        },
      }),
    );
    const r = s.resources[R('ResourceGroup')]!;
    expect(r.inputProperties!.groups).to.deep.equal({ type: 'array', items: ref('ResourceGroupGroup') });
    expect(r.requiredInputs).to.include('groups');
    const g = s.types[T('ResourceGroupGroup')]!;
    expect(g.properties!.filters).to.deep.equal({ type: 'array', items: ref('ResourceGroupGroupFilter') });
    expect(g.properties!.groups).to.deep.equal({ type: 'array', items: ref('ResourceGroupGroupGroup') });
    expect(g.required).to.deep.equal(['operator']);
    const f = s.types[T('ResourceGroupGroupFilter')]!;
    expect(f.properties!.values).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(f.required).to.deep.equal(['field', 'filterName', 'operation', 'values']);
    expect(s.types).to.have.property(T('ResourceGroupGroupGroupFilter'));
    // Inputs, outputs and state declare the same types: no conflict is reported.
    expect(warnings).to.deep.equal([]);
  });

  it('keeps the plural Terraform name of a flattened block in its type name, and nests below it', () => {
    const s = buildPulumiSchema(
      provider({
        sec_integration_cloud_a_ct: {
          id: str('OC'),
          name: str('R'),
          org_account_mappings: one({
            default_platform_account: str('R'),
            mapping: nested('set', { platform_account: str('R'), cloud_a_accounts: strSet('R') }, { min: 1 }),
          }),
        },
      }),
    );
    expect(s.types).to.have.keys(
      T('IntegrationCloudACtOrgAccountMappings'),
      T('IntegrationCloudACtOrgAccountMappingsMapping'),
    );
    expect(s.types[T('IntegrationCloudACtOrgAccountMappingsMapping')]!.properties).to.have.keys(
      'cloudAAccounts',
      'platformAccount',
    );
  });

  it('does not singularize MaxItems=1 type names (Tls) but does for lists (Tl)', () => {
    const tls = { cert: str('O') };
    const s = buildPulumiSchema(
      provider(
        { vdb_cluster: { id: str('C'), tls: one(tls) } },
        {
          name: 'vdb',
          dataSources: { vdb_clusters: schema({ tls: attr(listOf(objectOf({ cert: STRING })), 'C') }) },
        },
      ),
    );
    expect(s.types).to.have.property('vdb:index/ClusterTls:ClusterTls');
    expect(s.types).to.have.property('vdb:index/getClustersTl:getClustersTl');
    expect(s.functions['vdb:index/getClusters:getClusters']!.outputs!.properties!.tls).to.deep.equal({
      type: 'array',
      items: { $ref: '#/types/vdb:index/getClustersTl:getClustersTl' },
    });
  });

  it('maps computed list(object) attributes to pluralized arrays; their fields are all required (seed-era bridge)', () => {
    const status = attr(
      listOf(objectOf({ phase: STRING, nodes_up: NUMBER, scalability_info: listOf(objectOf({ reason: STRING })) })),
      'C',
    );
    const desc = provider({ vdb_accounts_cluster: { id: str('C'), status } }, { name: 'vdb' });
    const s = buildPulumiSchema(desc);
    const r = s.resources['vdb:index/accountsCluster:AccountsCluster']!;
    expect(r.properties!.statuses).to.deep.equal({
      type: 'array',
      items: { $ref: '#/types/vdb:index/AccountsClusterStatus:AccountsClusterStatus' },
    });
    expect(r.required).to.deep.equal(['statuses']);
    expect(r.inputProperties).to.deep.equal({});
    const st = s.types['vdb:index/AccountsClusterStatus:AccountsClusterStatus']!;
    expect(st.required).to.deep.equal(['nodesUp', 'phase', 'scalabilityInfos']);
    expect(st.properties!.nodesUp).to.deep.equal({ type: 'number' });
    expect(s.types).to.have.property(
      'vdb:index/AccountsClusterStatusScalabilityInfo:AccountsClusterStatusScalabilityInfo',
    );
    // The bridge after PR #3466 makes them optional.
    const later = buildPulumiSchema(desc, { bridge: 'latest' });
    expect(later.types['vdb:index/AccountsClusterStatus:AccountsClusterStatus']!.required).to.equal(undefined);
    // Optional attributes of the object type are optional either way.
    const withOptional = buildPulumiSchema(
      provider(
        { vdb_x: { id: str('C'), item: attr(listOf(objectOf({ a: STRING, b: STRING }, ['b'])), 'C') } },
        { name: 'vdb' },
      ),
    );
    expect(withOptional.types['vdb:index/XItem:XItem']!.required).to.deep.equal(['a']);
  });

  it('records required outputs that are optional inputs under language.nodejs.requiredOutputs', () => {
    const s = buildPulumiSchema(
      provider({ sec_thing: { id: str('C'), configuration: one({ version: str('OC'), nodes: num('R') }, true) } }),
    );
    const t = s.types[T('ThingConfiguration')]!;
    expect(t.required).to.deep.equal(['nodes']);
    expect(t.language).to.deep.equal({ nodejs: { requiredOutputs: ['nodes', 'version'] } });
  });

  it('maps types: number, boolean, map, set, dynamic', () => {
    const s = buildPulumiSchema(
      provider({
        sec_thing: {
          id: str('C'),
          count: num('O'),
          flag: bool('O'),
          labels: strMap('O'),
          tags: strSet('O'),
          anything: attr(DYNAMIC, 'O'),
          single: nested('single', { a: str('O') }),
        },
      }),
    );
    const p = s.resources[R('Thing')]!.inputProperties!;
    expect(p.count).to.deep.equal({ type: 'number' });
    expect(p.flag).to.deep.equal({ type: 'boolean' });
    expect(p.labels).to.deep.equal({ type: 'object', additionalProperties: { type: 'string' } });
    expect(p.tags).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(p.anything).to.deep.equal({ $ref: 'pulumi.json#/Any' });
    expect(p.single).to.deep.equal(ref('ThingSingle'));
  });

  it('marks sensitive and write-only values secret, deprecated ones "Deprecated"', () => {
    const s = buildPulumiSchema(
      provider({
        sec_thing: {
          id: str('C'),
          api_key: str('R', { sensitive: true, description: 'The key.' }),
          password: str('O', { writeOnly: true }),
          old: str('O', { deprecated: 'Use new instead.' }),
        },
      }),
    );
    const r = s.resources[R('Thing')]!;
    expect(r.inputProperties!.apiKey).to.deep.equal({ type: 'string', description: 'The key.', secret: true });
    expect(r.properties!.apiKey!.secret).to.equal(true);
    expect(r.inputProperties!.password!.secret).to.equal(true);
    expect(r.inputProperties!.password!.description).to.match(/write-only/);
    // The wire schema only carries a deprecated flag, so the bridge's message is the literal "Deprecated".
    expect(r.inputProperties!.old!.deprecationMessage).to.equal('Deprecated');
  });

  it('auto-names a string `name` input unless the mapping turns it off', () => {
    const desc = provider(
      {
        sec_alert_channel_email: { id: str('OC'), name: str('R') },
        sec_agent_access_token: { id: str('OC'), name: str('R') },
      },
      { pulumi: { autoNameOff: ['sec_agent_access_token'] } },
    );
    const s = buildPulumiSchema(desc);
    const email = s.resources[R('AlertChannelEmail')]!;
    expect(email.requiredInputs ?? []).to.not.include('name');
    expect(email.required).to.include('name');
    const token = s.resources[R('AgentAccessToken')]!;
    expect(token.requiredInputs).to.deep.equal(['name']);
    // autoNameOn wins over autoNameOff.
    const on = buildPulumiSchema({
      ...desc,
      pulumi: { autoNameOff: ['sec_agent_access_token'], autoNameOn: ['sec_agent_access_token'] },
    });
    expect(on.resources[R('AgentAccessToken')]!.requiredInputs).to.equal(undefined);
  });

  it('applies explicit nested type names', () => {
    const s = buildPulumiSchema(
      provider(
        {
          sec_alert_channel_cloud_a_object_store: {
            id: str('OC'),
            credentials: one({ role_arn: str('R'), inner: one({ a: str('O') }) }, true),
          },
        },
        {
          pulumi: {
            typeNameOverrides: {
              'sec_alert_channel_cloud_a_object_store.credentials': 'AlertChannelObjectStoreCredentials',
            },
          },
        },
      ),
    );
    expect(s.resources[R('AlertChannelCloudAObjectStore')]!.inputProperties!.credentials).to.deep.equal(
      ref('AlertChannelObjectStoreCredentials'),
    );
    expect(s.types).to.have.keys(T('AlertChannelObjectStoreCredentials'), T('AlertChannelObjectStoreCredentialsInner'));
  });

  it('records plan-time defaults on inputs only (the bridge itself cannot see them)', () => {
    const desc = provider({
      sec_thing: { id: str('C'), enabled: bool('O', { default: true }), site: str('O', { default: 'com' }) },
    });
    const r = buildPulumiSchema(desc).resources[R('Thing')]!;
    expect(r.inputProperties!.enabled!.default).to.equal(true);
    expect(r.inputProperties!.site!.default).to.equal('com');
    expect(r.properties!.enabled!.default).to.equal(undefined);
    expect(r.stateInputs!.properties!.enabled!.default).to.equal(undefined);
    // A defaulted attribute is optional+computed: always present in the output.
    expect(r.required).to.include.members(['enabled', 'site']);
    const exact = buildPulumiSchema(desc, { includeDefaults: false }).resources[R('Thing')]!;
    expect(exact.inputProperties!.enabled!.default).to.equal(undefined);
  });

  it('maps data sources to get… functions (no id renaming, arguments from optional/required fields)', () => {
    const s = buildPulumiSchema(
      provider(
        { sec_x: { id: str('C') } },
        {
          dataSources: {
            sec_agent_access_token: schema({ id: str('C'), name: str('R'), token: str('C', { sensitive: true }) }),
          },
        },
      ),
    );
    const f = s.functions[T('getAgentAccessToken')]!;
    expect(f.inputs).to.deep.equal({
      description: 'A collection of arguments for invoking getAgentAccessToken.\n',
      properties: { name: { type: 'string' } },
      type: 'object',
      required: ['name'],
    });
    expect(f.outputs!.properties).to.have.keys('id', 'name', 'token');
    expect(f.outputs!.properties!.token!.secret).to.equal(true);
    expect(f.outputs!.required).to.deep.equal(['id', 'name', 'token']);
  });

  it('synthesizes an `id` output for a data source without one (seed-era bridge only)', () => {
    const desc = provider(
      { sec_x: { id: str('C') } },
      { dataSources: { sec_things: schema({ names: strList('C') }) } },
    );
    const seedEra = buildPulumiSchema(desc).functions[T('getThings')]!.outputs!;
    expect(seedEra.properties!.id).to.deep.equal({
      type: 'string',
      description: 'The provider-assigned unique ID for this managed resource.',
    });
    expect(seedEra.required).to.deep.equal(['names', 'id']);
    expect(
      buildPulumiSchema(desc, { bridge: 'latest' }).functions[T('getThings')]!.outputs!.properties,
    ).to.not.have.property('id');
  });

  it('builds config variables, the provider resource and its terraformConfig method', () => {
    const s = buildPulumiSchema(
      provider(
        { sec_x: { id: str('C') } },
        {
          name: 'vdb',
          provider: schema({
            api_key: str('R', { sensitive: true }),
            api_url: str('O'),
            insecure: bool('O', { default: false }),
          }),
        },
      ),
    );
    // Config variables use output optionality (optional and not computed). A defaulted attribute is
    // optional+computed in our wire schema, which would make it a *required* config variable; a provider
    // block is never planned, so the mapping treats its defaulted settings as plain Optional (as SDKv2
    // serves `Optional` + `Default`), and records the default.
    expect(s.config.defaults).to.deep.equal(['apiKey']);
    expect(s.config.variables!.insecure).to.deep.equal({ type: 'boolean', default: false });
    // A computed provider attribute without a default stays a required config variable, as the bridge has it.
    const computedSetting = buildPulumiSchema(
      provider({ sec_x: { id: str('C') } }, { provider: schema({ region: str('OC') }) }),
    );
    expect(computedSetting.config.defaults).to.deep.equal(['region']);
    expect(s.config.variables!.apiKey).to.deep.equal({ type: 'string', secret: true });
    expect(s.provider.requiredInputs).to.deep.equal(['apiKey']);
    expect(s.provider.required).to.deep.equal(['apiKey']);
    expect(s.provider.inputProperties!.insecure!.default).to.equal(false);
    expect(s.provider.properties!.insecure).to.deep.equal({ type: 'boolean' });
    expect(s.provider.methods).to.deep.equal({ terraformConfig: 'pulumi:providers:vdb/terraformConfig' });
    expect(s.functions['pulumi:providers:vdb/terraformConfig']!.outputs!.required).to.deep.equal(['result']);
    expect(s.provider.description).to.match(/^The provider type for the vdb package\./);
  });

  it("writes the dynamic bridge's parameterization only for a given local provider path", () => {
    const desc = provider({ sec_x: { id: str('C') } });
    expect(buildPulumiSchema(desc)).to.not.have.property('parameterization');
    const p = buildPulumiSchema(desc, { localProviderPath: '/opt/keel/bin/terraform-provider-sec' }).parameterization!;
    expect(p.baseProvider).to.deep.equal({ name: 'terraform-provider', version: '1.1.3' });
    // parameterize.Value as JSON, base64-encoded like Go's []byte.
    expect(Buffer.from(p.parameter, 'base64').toString('utf8')).to.equal(
      '{"local":{"path":"/opt/keel/bin/terraform-provider-sec"}}',
    );
  });

  it('marks resources and functions whose Terraform schema is deprecated', () => {
    const deprecated: Schema = { version: 0, block: { ...schema({ id: str('C') }).block, deprecated: true } };
    const s = buildPulumiSchema(
      provider(
        { sec_y: { id: str('C') } },
        { resources: { sec_x: deprecated, sec_y: schema({ id: str('C') }) }, dataSources: { sec_xs: deprecated } },
      ),
    );
    expect(s.resources[R('X')]!.deprecationMessage).to.equal('Deprecated');
    expect(s.resources[R('Y')]!.deprecationMessage).to.equal(undefined);
    expect(s.functions[T('getXs')]!.deprecationMessage).to.equal('Deprecated');
    // After stateInputs / outputs, as the bridge orders the keys.
    expect(Object.keys(s.resources[R('X')]!).at(-1)).to.equal('deprecationMessage');
  });

  it('reports same-named nested types with different shapes', () => {
    const { warnings } = buildPulumiSchemaWithReport(
      provider({ sec_thing: { id: str('C'), foo_bar: one({ a: str('O') }), foo: one({ bar: one({ b: num('O') }) }) } }),
    );
    expect(warnings.join('\n')).to.match(/ThingFooBar/);
  });

  it('formats doc comments like tfgen', () => {
    expect(genDocComment('a\nb')).to.equal('a\nb\n');
    expect(genDocComment('a\n')).to.equal('a\n');
  });
});

// The real providers against their seeds: sec-seed.test.ts and vdb-seed.test.ts.
