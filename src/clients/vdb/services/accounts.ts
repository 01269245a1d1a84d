/** AccountService (account.v1): the members of an account. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { list, malformed, missing, ServiceCalls, type Sender } from '../calls.js';
import type { Plain } from '../codec.js';
import type { User } from './iam.js';

export interface AccountMember {
  readonly user: User;
  readonly isOwner: boolean;
}

export type AccountsApi = ReturnType<typeof accountsApi>;

export function accountsApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.account);
  return {
    listAccountMembers: calls.unary<{ accountId: string }, AccountMember[]>({
      method: 'ListAccountMembers',
      safety: 'read',
      answer: (response, operation) =>
        list(response, 'items').map((item, i): AccountMember => {
          const user = item.accountMember as Plain | undefined;
          if (!user || missing(user, ['id'])) throw malformed(operation, `items[${i}]: missing account member`);
          return { user: user as unknown as AccountMember['user'], isOwner: item.isOwner === true };
        }),
    }),
  };
}
