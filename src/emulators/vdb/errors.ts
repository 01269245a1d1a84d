import { status } from '@grpc/grpc-js';

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
 */
export class Violations {
  private readonly items: string[] = [];

  add(path: string, message: string, rule: string): void {
    this.items.push(` - ${path}: ${message} [${rule}]`);
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  /** Throws INVALID_ARGUMENT listing every violation, if any. */
  throwIfAny(): void {
    if (this.items.length > 0) throw invalidArgument(`validation error:\n${this.items.join('\n')}`);
  }
}
