/**
 * Where validation reports a problem inside an element of a set-nested block: a set element cannot be
 * addressed (docs/protocol.md, "Attribute paths"), so it is reported at the set's path, and the
 * message names the block and the element by its known, non-secret texts (validate.ts).
 */
import type { Fields } from '../../schema/define.js';
import { type AttributePath, attrStep } from '../../schema/path.js';
import type { ObjectValue } from '../../schema/value.js';

/** An element of a set-nested block being judged. */
export interface SetElement {
  readonly path: AttributePath;
  /** The block's name from the top, e.g. `permissions` or `configuration.node_selector`. */
  readonly block: string;
  /** The element as a person finds it in the configuration, e.g. 'the `labels` block with key = "team"'. */
  readonly label: string;
}

/** Where a problem of a field is reported: inside a set element, at the set. */
export const at = (name: string, path: AttributePath, within: SetElement | undefined): AttributePath =>
  within?.path ?? [...path, attrStep(name)];

/** A field's name as a message shows it: inside a set element, from the block down. */
export const shownName = (name: string, within: SetElement | undefined): string =>
  within ? `${within.block}.${name}` : name;

/** The enclosing set element, for a single block inside it. */
export const inBlock = (within: SetElement | undefined, name: string): SetElement | undefined =>
  within && { ...within, block: shownName(name, within) };

/**
 * A set element as a person finds it in the configuration: its block and up to two of its known,
 * non-secret texts (shortened), e.g. 'the `labels` block with key = "team", value = "a b"'.
 */
export function elementLabel(
  block: string,
  fields: Fields,
  element: ObjectValue,
  within: SetElement | undefined,
): string {
  const texts = Object.entries(fields)
    .filter(
      ([n, d]) => d.kind === 'attr' && !d.options.sensitive && !d.options.writeOnly && typeof element[n] === 'string',
    )
    .slice(0, 2)
    .map(([n]) => {
      const text = element[n] as string;
      return `${n} = ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`;
    });
  const own = `the \`${block}\` block${texts.length > 0 ? ` with ${texts.join(', ')}` : ''}`;
  return within ? `${own}, in ${within.label}` : own;
}
