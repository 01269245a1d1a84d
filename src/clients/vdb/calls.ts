/**
 * The one mechanism every call of the client goes through. A service module (./services/*.ts) writes
 * each of its calls once, with `unary` or `allPages` of its ServiceCalls: the RPC's name on the wire,
 * whether it is safe to repeat, the request made of the caller's input, and what the answer is made
 * into (one of the answers below, which names the field the answer is in and the fields it must carry,
 * its key first). Deadlines, retries, cancellation and the ApiErrors of a failed exchange are the
 * transport's (./transport.ts), loaded at the first call; this module loads no library.
 */
import { ApiError } from '@keel/provider-framework/client';
import type { VdbServiceName } from '../../wire/vdb-services.js';
import type { Plain } from './codec.js';
import type { VdbCallOptions } from './config.js';
import type { VdbTransport } from './transport.js';

/** A server that keeps returning page tokens is broken; stop rather than loop forever. */
const MAX_PAGES = 1_000;

/** Retried when the request is safe to repeat; reads always are. 'once': creates (see ./api.ts, Retries). */
export type Safety = 'read' | 'idempotent' | 'once';

/** Where the calls go: the transport, made at the first call (./client.ts). */
export type Sender = Pick<VdbTransport, 'unary'>;

/** What a call makes of its response message; `operation` (`ClusterService/GetCluster`) names it in errors. */
export type Answer<Out> = (response: Plain, operation: string) => Out;

export interface UnaryCallDefinition<In, Out, Options extends VdbCallOptions> {
  /** The RPC's name in its service, as on the wire: `GetCluster`. */
  readonly method: string;
  readonly safety: Safety;
  /** The request message made of the caller's input; by default the input as it is. */
  readonly request?: (input: In) => Plain;
  /** Request metadata taken from the call's options (e.g. vdb-jwt-rbac). */
  readonly metadata?: (options: Options | undefined) => Record<string, string> | undefined;
  readonly answer: Answer<Out>;
}

export interface PagedCallDefinition<In, Item> {
  /** The RPC's name in its service, as on the wire: `ListClusters`. */
  readonly method: string;
  /** The request message made of the caller's input (the page token is added); by default the input as it is. */
  readonly request?: (input: In) => Plain;
  /** What the items of every page are made into (`items` below). */
  readonly items: (items: Plain[], operation: string) => Item[];
}

/** The calls of one gRPC service of the API. */
export class ServiceCalls {
  /** The service's short name (`ClusterService`), which the operations in errors begin with. */
  private readonly shortName: string;

  constructor(
    private readonly sender: Sender,
    private readonly service: VdbServiceName,
  ) {
    this.shortName = service.slice(service.lastIndexOf('.') + 1);
  }

  /** A call of one request and one response. */
  unary<In extends object, Out, Options extends VdbCallOptions = VdbCallOptions>(
    definition: UnaryCallDefinition<In, Out, Options>,
  ): (input: In, options?: Options) => Promise<Out> {
    const { method, safety, answer } = definition;
    const operation = `${this.shortName}/${method}`;
    return async (input, options) => {
      const request = definition.request ? definition.request(input) : asIs(input);
      const response = await this.send(method, request, safety, options, definition.metadata?.(options));
      return answer(response, operation);
    };
  }

  /** A paginated list, read to its last page: every item of every page. */
  allPages<In extends object, Item>(
    definition: PagedCallDefinition<In, Item>,
  ): (input: In, options?: VdbCallOptions) => Promise<Item[]> {
    const { method } = definition;
    const operation = `${this.shortName}/${method}`;
    return async (input, options) => {
      const request = definition.request ? definition.request(input) : asIs(input);
      const items: Plain[] = [];
      const seen = new Set<string>();
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await this.send(method, { ...request, ...(pageToken ? { pageToken } : {}) }, 'read', options);
        items.push(...list(response, 'items'));
        const next = response.nextPageToken;
        if (typeof next !== 'string' || next === '') return definition.items(items, operation);
        // These two name the method alone, as they always have.
        if (seen.has(next)) throw malformed(method, `the server repeated page token ${JSON.stringify(next)}`);
        seen.add(next);
        pageToken = next;
      }
      throw malformed(method, `more than ${MAX_PAGES} pages`);
    };
  }

  private send(
    method: string,
    request: Plain,
    safety: Safety,
    options: VdbCallOptions = {},
    metadata?: Record<string, string>,
  ): Promise<Plain> {
    return this.sender.unary({
      service: this.service,
      method,
      request,
      idempotent: safety !== 'once',
      changes: safety !== 'read',
      ...(metadata ? { metadata } : {}),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }
}

/** A call's input sent as its request, as it is (a copy). */
function asIs(input: object): Plain {
  return { ...input };
}

// ---------------------------------------------------------------------------------------------
// Answers. `carrying` lists the fields each answer must have (a string not empty, a message present),
// its key first: `id` for most, `value` for a permission. A response without them is malformed.

/** The message in the response's `field`. */
export function one<T>(field: string, carrying: readonly string[]): Answer<T> {
  return (response, operation) => {
    const item = response[field] as Plain | undefined;
    if (item === undefined) throw malformed(operation, `no ${field} in the response`);
    const problem = missing(item, carrying);
    if (problem) throw malformed(operation, `${field}: ${problem}`);
    return item as unknown as T;
  };
}

/** The list in the response's `field` (absent: empty). */
export function many<T>(field: string, carrying: readonly string[]): Answer<T[]> {
  const each = items<T>(carrying);
  return (response, operation) => each(list(response, field), operation);
}

/** Listed items, each carrying the fields. */
export function items<T>(carrying: readonly string[]): (items: Plain[], operation: string) => T[] {
  return (items, operation) => {
    items.forEach((item, i) => {
      const problem = missing(item, carrying);
      if (problem) throw malformed(operation, `items[${i}]: ${problem}`);
    });
    return items as unknown as T[];
  };
}

/** An answer the caller needs nothing of. */
export const nothing: Answer<void> = () => undefined;

/** Why `item` lacks one of the fields, or undefined when it has them all. */
export function missing(item: Plain, carrying: readonly string[]): string | undefined {
  const absent = carrying.find((field) => item[field] === undefined || item[field] === '');
  return absent === undefined ? undefined : `missing ${absent}`;
}

export function list(response: Plain, field: string): Plain[] {
  return (response[field] as Plain[] | undefined) ?? [];
}

export function malformed(operation: string, detail: string): ApiError {
  return new ApiError(`malformed response: ${detail}`, { code: 'malformed_response', operation });
}
