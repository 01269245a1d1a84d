import { type ArraySpec, field, type FieldSpec, type ObjectSpec } from './language.js';

/** The severities a rule names by number, from 1 in this order (alert and report rules alike). */
export const RULE_SEVERITY_NAMES = ['Critical', 'High', 'Medium', 'Low', 'Info'] as const;

/** A rule's severities: 1 = Critical … 5 = Info. */
export const RULE_SEVERITY = field.integer({ min: 1, max: RULE_SEVERITY_NAMES.length });

/** What one kind of routing rule adds to the shape they share. */
export interface RoutingRuleShape {
  /** The channels it routes to (`intgGuidList`). */
  readonly channels: ArraySpec;
  /** Its own filters, between the shared ones (name, description, enabled) and the read-only ones. */
  readonly filters: Readonly<Record<string, FieldSpec>>;
  /** Its own fields beside `filters`. */
  readonly fields?: Readonly<Record<string, FieldSpec>>;
}

/**
 * The body of an alert, report or data export rule, a create or a whole replacement alike: a rule of
 * the one `type` its collection takes, the channels it routes to, and its `filters`.
 */
export function routingRuleBody(type: string, shape: RoutingRuleShape): ObjectSpec {
  return field.object({
    mcGuid: field.string({ optional: true }),
    type: field.string({ oneOf: [type] }),
    intgGuidList: shape.channels,
    filters: field.object({
      name: field.string(),
      description: field.string({ optional: true, allowEmpty: true }),
      enabled: field.flag(),
      ...shape.filters,
      // Read-only fields a client may send back; ignored.
      createdOrUpdatedTime: field.string({ optional: true, allowEmpty: true }),
      createdOrUpdatedBy: field.string({ optional: true, allowEmpty: true }),
    }),
    ...shape.fields,
  });
}
