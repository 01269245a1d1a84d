/**
 * The rules of proto/vdb no argument reaches, and why: no argument sets the field (the server sets it,
 * the provider writes it, or it is never sent). Every other rule is checked by an attribute (./rules.ts,
 * `apiRules`) or held by the code or the schema that says so beside it (./rules-held.ts), each tried by a
 * test. The coverage test (test/resources/vdb/api-rules.test.ts) holds this list to the rules, and the page
 * shows it beside each field (docs/api/vdb.md, "Field rules"; src/docs/vdb-field-rules.ts).
 */

/** Why no argument reaches a rule, by a test on its name (`<field>#<rule>`). */
export const NOT_CHECKED_AT_PLAN: readonly (readonly [RegExp, string])[] = [
  [/\.Create\w+Request\.\w+#(required|cel\.read_only)$/, 'a create sends its object, without what the server sets'],
  [/\.Update\w+Request\.\w+#(required|cel\.string\.uuid(_empty)?)$/, 'an update sends its object with the id in state'],
  [/\.List\w+Request\.page_size#int32$/, 'the client sends no page size: it reads the pages the server makes'],
  [/\.Role\.role_type#enum$/, 'the client creates custom roles only (src/clients/vdb/services/iam.ts)'],
  [/\.ListPackagesRequest\.statuses#repeated\.max_items$/, 'the booking packages data source filters by no status'],
  [/\.ClusterStorageConfiguration\.storage_tier_type#enum$/, 'the provider sends no storage configuration'],
];
