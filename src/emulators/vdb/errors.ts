import { status } from '@grpc/grpc-js';
import { MAX_QUOTED_CHARACTERS, MAX_REPORTED_VIOLATIONS } from './limits.js';

/** A gRPC failure a handler wants to answer with. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what: string): RpcError => new RpcError(status.NOT_FOUND, `${what} not found`);
export const invalidArgument = (message: string): RpcError => new RpcError(status.INVALID_ARGUMENT, message);
export const failedPrecondition = (message: string): RpcError => new RpcError(status.FAILED_PRECONDITION, message);
export const permissionDenied = (message: string): RpcError => new RpcError(status.PERMISSION_DENIED, message);
export const alreadyExists = (message: string): RpcError => new RpcError(status.ALREADY_EXISTS, message);

/**
 * Collects rule violations the way the real server's request validation reports them:
 * `validation error:\n - <field path>: <message> [<rule id>]`, paths in proto (snake_case) names.
 * A request with thousands of bad elements gets the first few listed and the rest counted.
 */
export class Violations {
  private readonly items: string[] = [];
  private unlisted = 0;

  add(path: string, message: string, rule: string): void {
    // A rule of a whole request has no path, as protovalidate writes it.
    const at = path === '' ? '' : `${path}: `;
    if (this.items.length < MAX_REPORTED_VIOLATIONS) this.items.push(` - ${at}${message} [${rule}]`);
    else this.unlisted++;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  /** The answer's message: `validation error:` and one line per violation. */
  text(): string {
    const more = this.unlisted > 0 ? `\n - … and ${this.unlisted} more violation(s)` : '';
    return `validation error:\n${this.items.join('\n')}${more}`;
  }

  /** Throws INVALID_ARGUMENT listing the violations, if any. */
  throwIfAny(): void {
    if (this.items.length > 0) throw invalidArgument(this.text());
  }
}

/** A client's value quoted in a message, cut short when long (answers stay small whatever was sent). */
export function quoted(value: string): string {
  const characters = [...value];
  if (characters.length <= MAX_QUOTED_CHARACTERS) return JSON.stringify(value);
  return `${JSON.stringify(characters.slice(0, MAX_QUOTED_CHARACTERS).join(''))}… (${characters.length} characters)`;
}
