/**
 * `provider::sec::policy_id_suffix(id, account)`: the `policy_id_suffix` a policy's id holds, for a
 * configuration that adopts a custom policy by its id (an `import` block) and must repeat its suffix.
 */
import { FunctionArgumentError, providerFunction, STRING } from '@keel/provider-framework';
import { SUFFIX } from '../policy/policy.js';
import { tenantOf } from './tenant.js';

export default providerFunction({
  name: 'policy_id_suffix',
  summary: "The id suffix of a custom policy, from its id and the account's name",
  description:
    'The `policy_id_suffix` a custom policy\'s id holds: `policy_id_suffix("acme-abcd-1234", "acme")` is ' +
    '`"abcd-1234"`. A policy the platform numbered (`acme-17`) has none: the result is `""`, which ' +
    '`policy_id_suffix` takes for none. The account is needed because its name may itself hold `-`.',
  parameters: [
    { name: 'id', type: STRING, description: 'The policy id.' },
    { name: 'account', type: STRING, description: 'The account the policy is in, by name or address.' },
  ],
  returns: STRING,
  examples: [
    { args: ['acme-abcd-1234', 'acme'], result: 'abcd-1234' },
    { args: ['my-org-abc', 'https://my-org.sec-platform.example'], result: 'abc' },
    { args: ['acme-17', 'acme'], result: '' },
    { args: ['other-abc', 'acme'], error: 'is not a policy id of the account acme', argument: 0 },
  ],
  call([id, account]) {
    const tenant = tenantOf(account as string, 1);
    const text = id as string;
    if (!text.startsWith(`${tenant}-`))
      throw new FunctionArgumentError(0, `${JSON.stringify(text)} is not a policy id of the account ${tenant}`);
    const rest = text.slice(tenant.length + 1);
    if (/^\d+$/.test(rest)) return '';
    if (!SUFFIX.test(rest))
      throw new FunctionArgumentError(
        0,
        `${JSON.stringify(text)} is not a policy id: ${JSON.stringify(rest)} is no suffix`,
      );
    return rest;
  },
});
