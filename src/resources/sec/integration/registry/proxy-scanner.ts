import { attr, attrStep, block } from '@keel/provider-framework';
import {
  containerRegistry,
  imageLimitsFromApi,
  imageLimitsToApi,
  limitByRepositories,
  limitByTags,
  limitNumImgs,
  scannerFields,
  unlessBlank,
} from './family.js';
import { checkedBy } from '../../rules.js';

checkedBy('ContainerRegistries:PROXY_SCANNER.limitByLabel[]', 'check', {
  inCode: 'validate: every label has a non-blank key',
});

export default containerRegistry({
  typeName: 'sec_integration_proxy_scanner',
  registryType: 'PROXY_SCANNER',
  description:
    "A proxy scanner: a scanner you run next to your registries, which assesses images on the platform's " +
    'behalf. The platform issues the token the scanner reports with (`server_token`, sent to ' +
    '`server_uri`).',
  fields: {
    limit_by_tags: limitByTags(),
    limit_by_label: block.set(
      {
        key: attr.string({
          optional: true,
          description: 'Label key (required in practice: a label without a key matches nothing).',
        }),
        value: attr.string({
          optional: true,
          description: 'Label value; leave it out to accept any value of the label.',
        }),
      },
      {
        description:
          'Image labels to limit the assessment to. Repeat the block with the same `key` to accept ' +
          'several values of one label. With `limit_by_tags` as well, an image must match both.',
      },
    ),
    limit_by_repositories: limitByRepositories(),
    limit_num_imgs: limitNumImgs('PROXY_SCANNER'),
    ...scannerFields,
  },
  validate(config, diags) {
    // The contract's check of each label item (a key not blank), here where an unset key can be told apart.
    // A key not known yet is judged at plan or apply time, when the engine runs this again.
    if ((config.limit_by_label ?? []).some((label) => label.key === null || label.key?.trim() === '')) {
      diags.error('Invalid limit_by_label block', 'Every `limit_by_label` block needs a non-blank `key`.', [
        attrStep('limit_by_label'),
      ]);
    }
  },
  toData: (m) => imageLimitsToApi(m),
  fromData: (d, prior) => {
    const limits = imageLimitsFromApi(d, prior);
    // An empty value on the wire is a label without a value in the configuration.
    return {
      ...limits,
      limit_by_label: limits.limit_by_label.map((label) => ({ key: label.key, value: unlessBlank(label.value) })),
    };
  },
});
