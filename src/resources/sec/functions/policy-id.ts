/**
 * `provider::sec::policy_id(account, suffix)`: the id the platform gives a custom policy created with
 * `policy_id_suffix` (docs/api/sec.md, "Policies"): `<tenant>-<suffix>`, the tenant being the
 * account's name, lower-case. For a policy of this configuration `sec_policy.x.id` says it; this is
 * for one that another configuration or the console made, or for an `import` block.
 */
import { FunctionArgumentError, providerFunction, STRING } from '@keel/provider-framework';
import { SUFFIX, SUFFIX_RULE } from '../policy/policy.js';
import { tenantOf } from './tenant.js';

export default providerFunction({
  name: 'policy_id',
  summary: "The id of a custom policy, from the account and the policy's id suffix",
  description:
    "The id the platform gives a custom policy created with `policy_id_suffix`: the account's name, " +
    'lower-case, a `-`, and the suffix (`acme` and `abcd-1234` give `acme-abcd-1234`). The account may ' +
    'be given as a name (`acme`) or as its address (`https://acme.sec-platform.example`).',
  parameters: [
    { name: 'account', type: STRING, description: 'The account, by name or address.' },
    {
      name: 'suffix',
      type: STRING,
      description: `The policy id suffix: ${SUFFIX_RULE}.`,
    },
  ],
  returns: STRING,
  examples: [
    { args: ['acme', 'abcd-1234'], result: 'acme-abcd-1234' },
    { args: ['https://Acme.sec-platform.example', 'tfsample'], result: 'acme-tfsample' },
    { args: ['acme', 'Bad_Suffix'], error: '"Bad_Suffix" is not a policy id suffix', argument: 1 },
    { args: ['not an account', 'abc'], error: 'is not an account', argument: 0 },
  ],
  call([account, suffix]) {
    return `${tenantOf(account as string, 0)}-${checkedSuffix(suffix as string, 1)}`;
  },
});

/** `suffix` when the platform takes it, else the error at argument `index`. */
export function checkedSuffix(suffix: string, index: number): string {
  if (!SUFFIX.test(suffix))
    throw new FunctionArgumentError(
      index,
      `${JSON.stringify(suffix)} is not a policy id suffix: ${SUFFIX_RULE}, such as "abcd-1234"`,
    );
  return suffix;
}
