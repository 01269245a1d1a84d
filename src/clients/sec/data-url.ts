/**
 * JSON documents travel inside `data` as data URLs (custom templates, account mappings):
 * `data:application/json;name=i.json;base64,<base64>`.
 */
const PREFIX = 'data:application/json;name=i.json;base64,';

export function encodeJsonDataUrl(json: string): string {
  return `${PREFIX}${Buffer.from(json, 'utf8').toString('base64')}`;
}

/** The JSON text inside a data URL, or undefined when `value` is not a base64 JSON data URL. */
export function decodeJsonDataUrl(value: string): string | undefined {
  const match = /^data:application\/json(?:;[^,;]+)*;base64,(.*)$/s.exec(value);
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : undefined;
}
