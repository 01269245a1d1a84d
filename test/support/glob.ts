/** A pattern where `*` matches any text and everything else matches itself, whole. */
export function globToRegExp(glob: string, flags = ''): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    flags,
  );
}
