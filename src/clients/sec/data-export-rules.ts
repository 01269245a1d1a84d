import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { modelledBy, replaceKeeping } from './replace.js';
import { envelope, flag, leavesUnread, optionalText, optionalTexts, toFlag } from './wire.js';

/** A data export rule: the platform's data, exported to object-store alert channels. */
export interface DataExportRule {
  readonly mcGuid: string;
  /** Always "Dataexport". */
  readonly type: string;
  readonly intgGuidList: string[];
  readonly filters: {
    readonly name: string;
    readonly description: string;
    readonly enabled: boolean;
    readonly createdOrUpdatedTime: string;
    readonly createdOrUpdatedBy: string;
  };
}

export interface DataExportRuleInput extends Declaring {
  readonly intgGuidList: readonly string[];
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
}

export interface DataExportRulesApi {
  create(input: DataExportRuleInput, options?: CallOptions): Promise<DataExportRule>;
  /** ApiError 'not_found' when it does not exist. */
  get(mcGuid: string, options?: CallOptions): Promise<DataExportRule>;
  /** Replaces the whole rule. */
  update(mcGuid: string, input: DataExportRuleInput, options?: CallOptions): Promise<DataExportRule>;
  delete(mcGuid: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<DataExportRule[]>;
}

const BASE = '/api/v2/DataExportRules';

const ruleSchema = readingDeclared(
  z.object({
    mcGuid: z.string().min(1),
    type: z.string(),
    intgGuidList: optionalTexts,
    filters: leavesUnread(
      z.object({
        name: z.string(),
        description: optionalText,
        enabled: flag,
        createdOrUpdatedTime: optionalText,
        createdOrUpdatedBy: optionalText,
      }),
      {
        profileVersions:
          'a filter of a newer version of the rules that the provider does not model; an update keeps it as read',
      },
    ),
  }),
  'DataExportRules',
);

const one = envelope(ruleSchema);
const many = envelope(z.array(ruleSchema));

const ruleBody = (input: DataExportRuleInput, mcGuid?: string): Record<string, unknown> =>
  placeDeclared(
    {
      ...(mcGuid === undefined ? {} : { mcGuid }),
      type: 'Dataexport',
      intgGuidList: [...input.intgGuidList],
      filters: { name: input.name, description: input.description, enabled: toFlag(input.enabled) },
    },
    input.declared,
  );

export function dataExportRulesApi(http: SecHttp): DataExportRulesApi {
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
