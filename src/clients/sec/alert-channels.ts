import { z } from 'zod';
import { ALERT_CHANNEL_DATA_SCHEMAS, type AlertChannelData, type AlertChannelType } from './alert-channel-data.js';
import { segment, type CallOptions, type SecHttp } from './http.js';
import {
  integrationBody,
  integrationModelled,
  integrationSchema,
  type Integration,
  type IntegrationInput,
} from './integration.js';
import { replaceKeeping } from './replace.js';
import { envelope } from './wire.js';
import { isOwnKey, ownEntry } from '@keel/provider-framework/client';

/** An alert channel of one of the known types; narrow on `type`. */
export type AlertChannel<T extends AlertChannelType = AlertChannelType> = {
  [K in T]: Integration<K, AlertChannelData<K>>;
}[T];

export type AlertChannelInput<T extends AlertChannelType> = IntegrationInput<T, AlertChannelData<T>>;

export interface AlertChannelsApi {
  create<T extends AlertChannelType>(input: AlertChannelInput<T>, options?: CallOptions): Promise<AlertChannel<T>>;
  /** ApiError 'not_found' when it does not exist. */
  get(intgGuid: string, options?: CallOptions): Promise<AlertChannel>;
  /** Replaces name, enabled and data; the type cannot change. */
  update<T extends AlertChannelType>(
    intgGuid: string,
    input: AlertChannelInput<T>,
    options?: CallOptions,
  ): Promise<AlertChannel<T>>;
  delete(intgGuid: string, options?: CallOptions): Promise<void>;
  /** Sends a test alert; ApiError (usually 'invalid') with the platform's explanation on failure. */
  test(intgGuid: string, options?: CallOptions): Promise<void>;
  /** Every channel of a type this client knows (others are left out). */
  list(options?: CallOptions): Promise<AlertChannel[]>;
}

const BASE = '/api/v2/AlertChannels';

/** The generic integration, with `data` checked against the schema of its `type`. */
const alertChannelSchema = integrationSchema.transform((channel, ctx) => {
  const dataSchema = ownEntry(ALERT_CHANNEL_DATA_SCHEMAS, channel.type) as z.ZodType | undefined;
  if (!dataSchema) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `unsupported alert channel type ${JSON.stringify(channel.type)}`,
    });
    return z.NEVER;
  }
  const data = dataSchema.safeParse(channel.data);
  if (!data.success) {
    for (const issue of data.error.issues)
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message });
    return z.NEVER;
  }
  return { ...channel, data: data.data } as AlertChannel;
});

const one = envelope(alertChannelSchema);

/**
 * Lists are checked item by item: channels of types this client does not model are left out (so
 * one of them does not make the whole list unreadable); the others must have their type's shape.
 */
const many = envelope(
  z.array(z.unknown()).transform((items, ctx) => {
    const known: AlertChannel[] = [];
    items.forEach((item, index) => {
      const type = (item as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && !isOwnKey(ALERT_CHANNEL_DATA_SCHEMAS, type)) return;
      const parsed = alertChannelSchema.safeParse(item);
      if (parsed.success) known.push(parsed.data);
      else
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: [index, ...issue.path], message: issue.message });
    });
    return known;
  }),
);

export function alertChannelsApi(http: SecHttp): AlertChannelsApi {
  return {
    async create(input, options) {
      const operation = `POST ${BASE}`;
      const response = await http.json(
        { method: 'POST', path: BASE, operation, body: integrationBody(input) },
        one,
        options,
      );
      return response.data as AlertChannel<typeof input.type>;
    },
    async get(intgGuid, options) {
      const call = {
        method: 'GET',
        path: `${BASE}/${segment(intgGuid)}`,
        operation: `GET ${BASE}/{intgGuid}`,
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async update(intgGuid, input, options) {
      const call = {
        method: 'PATCH',
        path: `${BASE}/${segment(intgGuid)}`,
        operation: `PATCH ${BASE}/{intgGuid}`,
        body: integrationBody(input, intgGuid),
      } as const;
      const modelled = integrationModelled(ALERT_CHANNEL_DATA_SCHEMAS[input.type]);
      return (await replaceKeeping(http, call, modelled, one, options)).data as AlertChannel<typeof input.type>;
    },
    async delete(intgGuid, options) {
      await http.empty(
        { method: 'DELETE', path: `${BASE}/${segment(intgGuid)}`, operation: `DELETE ${BASE}/{intgGuid}` },
        options,
      );
    },
    async test(intgGuid, options) {
      await http.empty(
        // Another test alert is harmless: safe to repeat.
        {
          method: 'POST',
          path: `${BASE}/${segment(intgGuid)}/test`,
          operation: `POST ${BASE}/{intgGuid}/test`,
          idempotent: true,
        },
        options,
      );
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
  };
}
