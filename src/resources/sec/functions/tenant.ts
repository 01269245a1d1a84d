/**
 * The tenant a policy id begins with: the account's name, lower-case, as the user profile's address
 * names it (docs/api/sec.md, "Policies"; the policy resource reads it the same way on import).
 */
import { FunctionArgumentError } from '@keel/provider-framework';
import { normaliseAccount } from '../provider-config.js';

export function tenantOf(account: string, index: number): string {
  const tenant = normaliseAccount(account).split('.')[0]!.toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(tenant))
    throw new FunctionArgumentError(
      index,
      `${JSON.stringify(account)} is not an account: give its name (acme) or its address ` +
        '(https://acme.sec-platform.example)',
    );
  return tenant;
}
