import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { REPORT_SEVERITIES, type ReportSeverity, ruleSeverities } from './report-rules.js';
import { modelledBy, replaceKeeping } from './replace.js';
import { envelope, flag, optionalText, optionalTexts, toFlag } from './wire.js';

export { ALERT_RULE_CATEGORIES, ALERT_RULE_SOURCES, ALERT_RULE_SUBCATEGORIES } from './alert-rule-values.js';

/** An alert rule: which alerts (severities, sources, categories, resource groups) go to which alert channels. */
export interface AlertRule {
  readonly mcGuid: string;
  /** Always "Event". */
  readonly type: string;
  readonly intgGuidList: string[];
  readonly filters: {
    readonly name: string;
    readonly description: string;
    readonly enabled: boolean;
    readonly severity: ReportSeverity[];
    readonly resourceGroups: string[];
    /** Subcategories, in their current names. */
    readonly subCategory: string[];
    readonly source: string[];
    readonly category: string[];
    readonly createdOrUpdatedTime: string;
    readonly createdOrUpdatedBy: string;
  };
}

export interface AlertRuleInput extends Declaring {
  readonly intgGuidList: readonly string[];
  readonly filters: {
    readonly name: string;
    readonly description: string;
    readonly enabled: boolean;
    readonly severity: readonly ReportSeverity[];
    readonly resourceGroups: readonly string[];
    readonly subCategory: readonly string[];
    readonly source: readonly string[];
    readonly category: readonly string[];
  };
}

export interface AlertRulesApi {
  create(input: AlertRuleInput, options?: CallOptions): Promise<AlertRule>;
  /** ApiError 'not_found' when it does not exist. */
  get(mcGuid: string, options?: CallOptions): Promise<AlertRule>;
  /** Replaces the whole rule. */
  update(mcGuid: string, input: AlertRuleInput, options?: CallOptions): Promise<AlertRule>;
  delete(mcGuid: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<AlertRule[]>;
}

const BASE = '/api/v2/AlertRules';

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
      subCategory: optionalTexts,
      source: optionalTexts,
      category: optionalTexts,
      createdOrUpdatedTime: optionalText,
      createdOrUpdatedBy: optionalText,
    }),
  }),
  'AlertRules',
);

const one = envelope(ruleSchema);
const many = envelope(z.array(ruleSchema));

function ruleBody(input: AlertRuleInput, mcGuid?: string): Record<string, unknown> {
  const f = input.filters;
  return placeDeclared(
    {
      ...(mcGuid === undefined ? {} : { mcGuid }),
      type: 'Event',
      intgGuidList: [...input.intgGuidList],
      filters: {
        name: f.name,
        description: f.description,
        enabled: toFlag(f.enabled),
        severity: f.severity.map((s) => REPORT_SEVERITIES.indexOf(s) + 1),
        resourceGroups: [...f.resourceGroups],
        subCategory: [...f.subCategory],
        source: [...f.source],
        category: [...f.category],
      },
    },
    input.declared,
  );
}

export function alertRulesApi(http: SecHttp): AlertRulesApi {
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
      return (
        await replaceKeeping(
          http,
          { method: 'PATCH', path: path(mcGuid), operation: `PATCH ${BASE}/{mcGuid}`, body: ruleBody(input, mcGuid) },
          modelledWithDeclared(modelledBy(ruleSchema), input.declared),
          one,
          options,
        )
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
