import { attr, validators } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { checkedBy, secRule } from '../rules.js';
import { sameTrimmedList } from '../governance-values.js';

// The list's minItems (1) is nonEmpty, which says it as "must not be empty".
const RECIPIENTS_CHECKS = [
  validators.nonEmpty<string[]>(),
  validators.each(secRule('AlertChannels:EmailUser.channelProps.recipients[]', { trimmed: true })),
];
checkedBy('AlertChannels:EmailUser.channelProps.recipients', 'minItems', {
  checks: RECIPIENTS_CHECKS,
  sent: (list) => (Array.isArray(list) ? list.map((r) => String(r).trim()) : list),
});

export default alertChannel({
  typeName: 'sec_alert_channel_email',
  apiType: 'EmailUser',
  description:
    'Sends platform alerts by e-mail. A default e-mail channel is created during onboarding and cannot ' +
    'be edited; add channels like this one for other recipients.',
  fields: {
    recipients: attr.stringList({
      required: true,
      description: 'E-mail addresses that receive alerts. Surrounding whitespace is ignored.',
      validate: RECIPIENTS_CHECKS,
      equal: sameTrimmedList,
      unordered: true,
    }),
  },
  toData: (m) => ({ channelProps: { recipients: m.recipients.map((r) => r.trim()) } }),
  fromData: (data) => {
    const raw = (data.channelProps as { recipients?: unknown } | undefined)?.recipients;
    // Some platform versions return the list as one comma-joined string
    // (docs/api/sec.md, "Alert channel types").
    const recipients =
      typeof raw === 'string'
        ? raw
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean)
        : Array.isArray(raw)
          ? raw.map(String)
          : [];
    return { recipients };
  },
});
