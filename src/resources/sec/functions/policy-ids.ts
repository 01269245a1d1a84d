/**
 * `provider::sec::policy_ids(account, suffixes...)`: `policy_id` for each of several suffixes, in
 * their order, for a list of policies (an alert rule's, a report's).
 */
import { listOf, providerFunction, STRING } from '@keel/provider-framework';
import { checkedSuffix } from './policy-id.js';
import { tenantOf } from './tenant.js';

export default providerFunction({
  name: 'policy_ids',
  summary: 'The ids of several custom policies of one account, from their id suffixes',
  description:
    'The ids `policy_id` gives, for each suffix in turn: `policy_ids("acme", "a-1", "b-2")` is ' +
    '`["acme-a-1", "acme-b-2"]`, and `policy_ids("acme")` is `[]`.',
  parameters: [{ name: 'account', type: STRING, description: 'The account, by name or address.' }],
  variadic: { name: 'suffixes', type: STRING, description: 'Policy id suffixes, as `policy_id` takes them.' },
  returns: listOf(STRING),
  examples: [
    { args: ['acme', 'a-1', 'b2'], result: ['acme-a-1', 'acme-b2'] },
    { args: ['acme'], result: [] },
    { args: ['acme', 'ok-1', 'NO'], error: '"NO" is not a policy id suffix', argument: 2 },
  ],
  call([account, suffixes]) {
    const tenant = tenantOf(account as string, 0);
    return (suffixes as string[]).map((suffix, i) => `${tenant}-${checkedSuffix(suffix, 1 + i)}`);
  },
});
