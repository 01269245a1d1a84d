import { attr, block } from '@keel/provider-framework';
import { checkedBy } from '../../rules.js';
import {
  containerRegistry,
  keyValueKey,
  keyValuesFromApi,
  keyValuesToApi,
  scanCount,
  decimalText,
  scannerFields,
} from './family.js';

const DEFAULT_LIMIT_NUM_SCAN = 60;

// limit_num_scan is a number sent as its decimal text: scanCount (whole, 1 to the contract's bound) keeps
// it to the text's pattern, its length and the bound the kind's check sets.
for (const kind of ['pattern', 'maxLength'] as const)
  checkedBy('ContainerRegistries:INLINE_SCANNER.limitNumScan', kind, {
    checks: [scanCount],
    sent: decimalText,
    stricter: "the kind's check across its body: at most MAX_INLINE_SCANS",
  });
checkedBy('ContainerRegistries:INLINE_SCANNER', 'check', { inCode: 'limit_num_scan (scanCount)' });

export default containerRegistry({
  typeName: 'sec_integration_inline_scanner',
  registryType: 'INLINE_SCANNER',
  description:
    'An inline scanner: a scanner you run in your build pipelines, which assesses images before they are ' +
    'pushed. The platform issues the token the scanner reports with (`server_token`, sent to ' +
    '`server_uri`).',
  fields: {
    identifier_tag: block.set(
      {
        key: keyValueKey('INLINE_SCANNER', 'identifierTag', 'Tag key.'),
        value: attr.string({ required: true, description: 'Tag value.' }),
      },
      { description: "Tags that identify this scanner's results, as key/value pairs." },
    ),
    limit_num_scan: attr.number({
      optional: true,
      default: DEFAULT_LIMIT_NUM_SCAN,
      validate: [scanCount],
      description: 'The maximum number of scans the scanner may run per hour.',
    }),
    ...scannerFields,
  },
  toData: (m) => ({
    identifierTag: keyValuesToApi(m.identifier_tag),
    // The platform keeps this number as a string.
    limitNumScan: String(m.limit_num_scan ?? DEFAULT_LIMIT_NUM_SCAN),
  }),
  fromData: (d) => {
    const limit = d.limitNumScan === undefined ? NaN : Number.parseInt(d.limitNumScan, 10);
    return {
      identifier_tag: keyValuesFromApi(d.identifierTag),
      limit_num_scan: Number.isInteger(limit) ? limit : DEFAULT_LIMIT_NUM_SCAN,
    };
  },
});
