import { z } from 'zod';
import { RULE_SEVERITY_NAMES } from '../../wire/sec-contract/routing-rules.js';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { modelledBy, replaceKeeping } from './replace.js';
import { envelope, flag, keyedRecord, optionalText, optionalTexts, toFlag } from './wire.js';

/** Report severities in the platform's order; on the wire each is its position + 1 (1 = Critical). */
export const REPORT_SEVERITIES = RULE_SEVERITY_NAMES;
export type ReportSeverity = (typeof REPORT_SEVERITIES)[number];

export {
  REPORT_NOTIFICATION_KEYS,
  type ReportNotificationKey,
  type ReportNotifications,
} from './report-notification-keys.js';
import { REPORT_NOTIFICATION_KEYS, type ReportNotifications } from './report-notification-keys.js';

/** A report rule: who gets which compliance reports, for which severities and resource groups. */
export interface ReportRule {
  readonly mcGuid: string;
  /** Always "Report". */
  readonly type: string;
  /** GUIDs of the e-mail alert channels that receive the reports. */
  readonly intgGuidList: string[];
  readonly filters: {
    readonly name: string;
    readonly description: string;
    readonly enabled: boolean;
    readonly severity: ReportSeverity[];
    readonly resourceGroups: string[];
    readonly createdOrUpdatedTime: string;
    readonly createdOrUpdatedBy: string;
  };
  /** All flags; one the platform leaves out reads as false. */
  readonly reportNotificationTypes: ReportNotifications;
}

/** What create and update send; an update replaces the whole rule. */
export interface ReportRuleInput extends Declaring {
  readonly intgGuidList: readonly string[];
  readonly filters: {
    readonly name: string;
    readonly description: string;
    readonly enabled: boolean;
    readonly severity: readonly ReportSeverity[];
    readonly resourceGroups: readonly string[];
  };
  readonly reportNotificationTypes: ReportNotifications;
}

export interface ReportRulesApi {
  create(input: ReportRuleInput, options?: CallOptions): Promise<ReportRule>;
  /** ApiError 'not_found' when it does not exist. */
  get(mcGuid: string, options?: CallOptions): Promise<ReportRule>;
  update(mcGuid: string, input: ReportRuleInput, options?: CallOptions): Promise<ReportRule>;
  delete(mcGuid: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<ReportRule[]>;
}

const BASE = '/api/v2/ReportRules';

/** A rule's severities as the platform numbers them (1 = Critical), read as their names. */
export const ruleSeverities = z
  .array(z.number().int().min(1).max(REPORT_SEVERITIES.length))
  .nullish()
  .transform((v) => (v ?? []).map((n) => REPORT_SEVERITIES[n - 1]!));

const ruleSchema = readingDeclared(
  z.object({
    mcGuid: z.string().min(1),
    type: z.string(),
    intgGuidList: optionalTexts,
    filters: z.object({
      name: z.string(),
      description: optionalText,
      enabled: flag,
      severity: ruleSeverities,
      resourceGroups: optionalTexts,
      createdOrUpdatedTime: optionalText,
      createdOrUpdatedBy: optionalText,
    }),
    reportNotificationTypes: keyedRecord(z.boolean())
      .nullish()
      .transform(
        (flags) =>
          Object.fromEntries(
            REPORT_NOTIFICATION_KEYS.map((key) => [key, flags?.[key] === true]),
          ) as ReportNotifications,
      ),
  }),
  'ReportRules',
);

const one = envelope(ruleSchema);
const many = envelope(z.array(ruleSchema));

function ruleBody(input: ReportRuleInput, mcGuid?: string): Record<string, unknown> {
  return placeDeclared(
    {
      ...(mcGuid === undefined ? {} : { mcGuid }),
      type: 'Report',
      intgGuidList: [...input.intgGuidList],
      filters: {
        name: input.filters.name,
        description: input.filters.description,
        enabled: toFlag(input.filters.enabled),
        severity: input.filters.severity.map((s) => REPORT_SEVERITIES.indexOf(s) + 1),
        resourceGroups: [...input.filters.resourceGroups],
      },
      // Every flag, always: the platform stores the complete set.
      reportNotificationTypes: Object.fromEntries(
        REPORT_NOTIFICATION_KEYS.map((key) => [key, input.reportNotificationTypes[key] === true]),
      ),
    },
    input.declared,
  );
}

export function reportRulesApi(http: SecHttp): ReportRulesApi {
  const path = (mcGuid: string) => `${BASE}/${segment(mcGuid)}`;
  return {
    async create(input, options) {
      return (
        await http.json({ method: 'POST', path: BASE, operation: `POST ${BASE}`, body: ruleBody(input) }, one, options)
      ).data;
    },
    async get(mcGuid, options) {
      return (await http.json({ method: 'GET', path: path(mcGuid), operation: `GET ${BASE}/{mcGuid}` }, one, options))
        .data;
    },
    async update(mcGuid, input, options) {
      const call = {
        method: 'PATCH',
        path: path(mcGuid),
        operation: `PATCH ${BASE}/{mcGuid}`,
        body: ruleBody(input, mcGuid),
      } as const;
      return (
        await replaceKeeping(http, call, modelledWithDeclared(modelledBy(ruleSchema), input.declared), one, options)
      ).data;
    },
    async delete(mcGuid, options) {
      await http.empty({ method: 'DELETE', path: path(mcGuid), operation: `DELETE ${BASE}/{mcGuid}` }, options);
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
  };
}
