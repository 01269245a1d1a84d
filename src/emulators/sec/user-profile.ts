import { json, type Router } from '../core/index.js';
import { API_PREFIX, type SecContext } from './context.js';

/** GET /api/v2/UserProfile: the API user, with one row per account it can reach. */
export function registerUserProfileRoute(
  router: Router,
  ctx: SecContext,
  ids: { custGuid: string; userGuid: string },
): void {
  router.add('GET', `${API_PREFIX}/UserProfile`, () =>
    json(200, {
      data: [
        {
          username: ctx.username,
          orgAccount: false,
          url: `${ctx.account}.sec-platform.example`,
          orgAdmin: false,
          orgUser: false,
          accounts: [ctx.account, ...ctx.subaccounts].map((name) => ({
            admin: true,
            accountName: name.toUpperCase(),
            custGuid: ids.custGuid,
            userGuid: ids.userGuid,
            userEnabled: 1,
          })),
        },
      ],
    }),
  );
}
