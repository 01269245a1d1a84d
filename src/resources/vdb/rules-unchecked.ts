/**
 * Where the plan does not check a rule of proto/vdb field by field, and why: the rules no attribute
 * checks, and the CEL rules of whole messages with the provider's check of each. The coverage test
 * (test/resources/vdb/api-rules.test.ts) holds these lists to the rules, and the page shows them
 * beside each field (docs/api/vdb.md, "Field rules"; src/docs/vdb-field-rules.ts).
 */

/**
 * Why no attribute checks a rule: `not configured`, no argument sets the field (the server sets it, the
 * provider writes it, or it is never sent); `elsewhere`, an argument sets it and the schema or the
 * resource's code holds the rule (a required block, a rule across fields). A bound or a form (a number's
 * range, a text's length or pattern, an enum, a list's count) on a field an argument sets is never
 * `elsewhere`: the attribute derives it (apiRules), and the agreement test holds it to protovalidate
 * (test/resources/vdb/api-rules.test.ts refuses the reason otherwise).
 */
export type Unchecked = 'not configured' | 'elsewhere';

/** Why a rule has no attribute that checks it, by a test on its name (`<field>#<rule>`). */
export const NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string, Unchecked])[] = [
  [
    /\.Create\w+Request\.\w+#(required|cel\.read_only)$/,
    'a create sends its object, without what the server sets',
    'not configured',
  ],
  [
    /\.Update\w+Request\.\w+#(required|cel\.string\.uuid(_empty)?)$/,
    'an update sends its object with the id in state',
    'not configured',
  ],
  [
    /\.List\w+Request\.page_size#int32$/,
    'the client sends no page size: it reads the pages the server makes',
    'not configured',
  ],
  [
    /\.Role\.role_type#enum$/,
    'the client creates custom roles only (src/clients/vdb/services/iam.ts)',
    'not configured',
  ],
  [
    /\.ListPackagesRequest\.statuses#repeated\.max_items$/,
    'the booking packages data source filters by no status',
    'not configured',
  ],
  [
    /\.ClusterStorageConfiguration\.storage_tier_type#enum$/,
    'the provider sends no storage configuration',
    'not configured',
  ],
  [/\.(Cluster|HybridCloudEnvironment)\.configuration#required$/, 'a required block of the resource', 'elsewhere'],
  [
    /\.DatabaseConfigurationTls\.(cert|key)#required$/,
    'cluster/resource.ts: both blocks when tls is present',
    'elsewhere',
  ],
  [/\.auth\.v1\.DatabaseApiKey\.cluster_ids#repeated\.unique$/, 'a distinct list, sent with each id once', 'elsewhere'],
  [
    /\.DatabaseApiKey\.access_rules#cel\.access_rules\.\w+$/,
    'database-api-key-v2.ts: accessRuleConflicts',
    'elsewhere',
  ],
];

/** The CEL rules of whole messages, each with where the provider checks it. */
export const MESSAGE_RULES_CHECKED: Record<string, string> = {
  'vdb.cloud.cluster.v1.Cluster#cluster.hybrid_region_uuid': 'cluster/resource.ts: checkHybridRegion',
  'vdb.cloud.cluster.v1.Toleration#toleration.exists_no_value': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.equal_value': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.empty_key_exists': 'common.ts: checkTolerations',
  'vdb.cloud.cluster.v1.Toleration#toleration.seconds_no_execute': 'common.ts: checkTolerations',
  'vdb.cloud.booking.v1.ListPackagesRequest#region_required': 'booking-packages.ts: validate',
  'vdb.cloud.iam.v1.AssignUserRolesRequest#assign.not_empty': 'user-roles.ts sends only a change that has roles',
};
