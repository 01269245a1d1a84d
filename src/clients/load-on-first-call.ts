/** An object whose every member is a method returning a promise. */
export type AsyncMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

/**
 * An API object whose module is loaded on its first call. Most of the processes Terraform starts
 * never call the platform, or call one API of many; an API's module builds its zod schemas when it
 * is loaded, so loading it on demand keeps that out of every process that does not use it.
 *
 * Every member of T is an async method, so a call through this object has the API's own shape:
 * its result, or its rejection (a module that fails to load rejects the call, and the next call
 * tries again).
 */
export function loadOnFirstCall<T extends AsyncMethods<T>>(load: () => Promise<T>): T {
  let loading: Promise<T> | undefined;
  /** The API once loaded: later calls go to it directly. */
  let loaded: Record<string, unknown> | undefined;
  const api = () =>
    (loading ??= load().then(
      (value) => {
        loaded = value as Record<string, unknown>;
        return value;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(Object.create(null) as T, {
    get(_target, name) {
      // Not a thenable, and no symbol-keyed members: only the API's methods exist here.
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (method === undefined) {
        const call = (target: Record<string, unknown>, args: unknown[]): Promise<unknown> => {
          try {
            const member = target[name];
            if (typeof member !== 'function') throw new TypeError(`the API has no method ${name}`);
            return Promise.resolve(member.apply(target, args));
          } catch (error) {
            return Promise.reject(error);
          }
        };
        method = (...args: unknown[]) =>
          loaded ? call(loaded, args) : api().then((target) => call(target as Record<string, unknown>, args));
        methods.set(name, method);
      }
      return method;
    },
  });
}
