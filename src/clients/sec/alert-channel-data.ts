import { z } from 'zod';
import { ALERT_CHANNEL_DATA_SPECS } from '../../wire/sec-contract/alert-channels.js';
import { type AnswerOf, answerSchema } from './contract-answers.js';

/**
 * `data` of each alert channel type in the neutral wire format (docs/api/sec.md, "Alert channel types";
 * docs/decisions.md, "Neutral names"), as sec's contract declares it (src/wire/sec-contract/alert-channels.ts):
 * a field the platform gains is declared there, once. Secret fields are optional: the API returns them
 * blank or not at all, so callers keep their own copy; on create/update they must be sent.
 */
type Specs = typeof ALERT_CHANNEL_DATA_SPECS;

/** Some servers return the recipients comma-joined; always hand out an array. */
const recipients = z.union([z.array(z.string()), z.string()]).transform((value) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : value,
);

/** How the client reads a field of a type another way than the contract says. */
const READ_AS: { readonly [T in keyof Specs]?: Readonly<Record<string, z.ZodType>> } = {
  EmailUser: { 'channelProps.recipients': recipients },
};

export const ALERT_CHANNEL_DATA_SCHEMAS = Object.fromEntries(
  Object.entries(ALERT_CHANNEL_DATA_SPECS).map(([type, spec]) => [
    type,
    answerSchema(spec, READ_AS[type as keyof Specs]),
  ]),
) as { readonly [T in keyof Specs]: z.ZodType<AnswerOf<Specs[T]>> };

export type AlertChannelType = keyof Specs;

export const ALERT_CHANNEL_TYPES = Object.keys(ALERT_CHANNEL_DATA_SCHEMAS) as AlertChannelType[];

export type AlertChannelData<T extends AlertChannelType> = AnswerOf<Specs[T]>;
