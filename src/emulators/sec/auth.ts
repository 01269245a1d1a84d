import {
  HttpError,
  json,
  quote,
  validate,
  type EmulatorRequest,
  type EmulatorResponse,
  type Middleware,
  type Router,
} from '../core/index.js';
import { ACCESS_TOKEN_BODIES } from '../../wire/sec-contract/access-tokens.js';
import { API_PREFIX, type SecContext } from './context.js';

export const TOKEN_PATH = `${API_PREFIX}/access/tokens`;
export const SECRET_HEADER = 'x-sec-uaks';

const DEFAULT_EXPIRY_SECONDS = 3600;

const tokenRequestSpec = ACCESS_TOKEN_BODIES.AccessTokens!;

/** POST /api/v2/access/tokens: key id in the body, secret in X-SEC-UAKS; answer is not enveloped. */
export function registerTokenRoute(router: Router, ctx: SecContext): void {
  router.document('POST', TOKEN_PATH, { body: tokenRequestSpec });
  router.add('POST', TOKEN_PATH, (request) => {
    const secret = header(request, SECRET_HEADER);
    if (secret === undefined) throw unauthorized('missing X-SEC-UAKS header (the API secret)');
    validate(tokenRequestSpec, request.body, 'body');
    const body = request.body as { keyId: string; expiryTime?: number };
    if (body.keyId !== ctx.apiKey || secret !== ctx.apiSecret) throw unauthorized('invalid API key or secret');
    return json(201, ctx.tokens.issue(body.expiryTime ?? DEFAULT_EXPIRY_SECONDS));
  });
}

/**
 * Every /api/v2 path except the token endpoint needs a valid, unexpired token, sent as
 * `Authorization: Bearer <token>` (a bare token is accepted too, as the platform does).
 * An `Account-Name` header must name the account or one of its sub-accounts.
 */
export function authMiddleware(ctx: SecContext): Middleware {
  return async (request, next): Promise<EmulatorResponse> => {
    if (request.path === TOKEN_PATH || !request.path.startsWith(`${API_PREFIX}/`)) return next();
    const authorization = header(request, 'authorization');
    if (authorization === undefined || authorization.trim() === '') {
      throw unauthorized('missing Authorization header; request a token from POST /api/v2/access/tokens');
    }
    const token = authorization.replace(/^Bearer\s+/i, '').trim();
    if (!ctx.tokens.authorize(token)) throw unauthorized('invalid or expired access token');
    const accountName = header(request, 'account-name');
    if (accountName !== undefined && !knownAccount(ctx, accountName)) {
      throw new HttpError(403, `the API key has no access to account ${quote(accountName)}`);
    }
    return next();
  };
}

function knownAccount(ctx: SecContext, name: string): boolean {
  const wanted = name.toLowerCase();
  return [ctx.account, ...ctx.subaccounts].some((account) => account.toLowerCase() === wanted);
}

function unauthorized(message: string): HttpError {
  return new HttpError(401, message);
}

function header(request: EmulatorRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
