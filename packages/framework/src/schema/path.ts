/**
 * Attribute paths (tfplugin6 AttributePath): a step is an attribute or block name, a map key, or a
 * list index. Sets cannot be addressed element-wise, so a path stops at a set.
 */
export type PathStep = { readonly attr: string } | { readonly key: string } | { readonly index: number };
export type AttributePath = readonly PathStep[];

export const attrStep = (attr: string): PathStep => ({ attr });
export const keyStep = (key: string): PathStep => ({ key });
export const indexStep = (index: number): PathStep => ({ index });

/** Terraform's own rendering: `config.rule[0].port`, `tags["env"]`. */
export function formatPath(path: AttributePath): string {
  let out = '';
  for (const step of path) {
    if ('attr' in step) out += out === '' ? step.attr : `.${step.attr}`;
    else if ('key' in step) out += `[${JSON.stringify(step.key)}]`;
    else out += `[${step.index}]`;
  }
  return out;
}

export function pathEquals(a: AttributePath, b: AttributePath): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const t = b[i]!;
    if ('attr' in s) return 'attr' in t && t.attr === s.attr;
    if ('key' in s) return 'key' in t && t.key === s.key;
    return 'index' in t && t.index === s.index;
  });
}
