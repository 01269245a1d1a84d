/**
 * Where the plan does not check a rule of proto/vdb field by field, and why: the rules no attribute
 * checks, and the CEL rules of whole messages with the provider's check of each. The coverage test
 * (test/resources/vdb/api-rules.test.ts) holds these lists to the rules, and the page shows them
 * beside each field (docs/api/vdb.md, "Field rules"; src/docs/vdb-field-rules.ts).
 */

/** Why a rule has no attribute that checks it, by a test on its name (`<field>#<rule>`). */
export const NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string])[] = [
  [/\.Create\w+Request\.\w+#(required|cel\.read_only)$/, 'a create sends its object, without what the server sets'],
  [/\.Update\w+Request\.\w+#(required|cel\.string\.uuid(_empty)?)$/, 'an update sends its object with the id in state'],
  [/\.List\w+Request\.page_size#int32$/, 'the client sends no page size: it reads the pages the server makes'],
  [/\.Role\.role_type#enum$/, 'the client creates custom roles only (src/clients/vdb/services/iam.ts)'],
  [/\.ListPackagesRequest\.statuses#repeated\.max_items$/, 'the booking packages data source filters by no status'],
  [/\.ClusterStorageConfiguration\.storage_tier_type#enum$/, 'the provider sends no storage configuration'],
  [/\.(Cluster|HybridCloudEnvironment)\.configuration#required$/, 'a required block of the resource'],
  [/\.DatabaseConfigurationTls\.(cert|key)#required$/, 'cluster/resource.ts: both blocks when tls is present'],
  [/\.auth\.v1\.DatabaseApiKey\.cluster_ids#repeated\.unique$/, 'a distinct list, sent with each id once'],
  [/\.DatabaseApiKey\.access_rules#cel\.access_rules\.\w+$/, 'database-api-key-v2.ts: accessRuleConflicts'],
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
