/**
 * Objects built from keys that come from outside the process: map keys of Terraform values, the
 * attribute names of a type Terraform sent, keys of data the platforms answer with.
 */

/**
 * Adds an entry to an object under any key, `__proto__` too: an assignment `o[key] = v` would take
 * that key for the object's prototype and lose the entry. Objects built from keys that come from
 * outside (map keys, the attribute names of a decoded type) are built with this or with
 * Object.fromEntries, which defines its entries the same way.
 */
export function setEntry<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
