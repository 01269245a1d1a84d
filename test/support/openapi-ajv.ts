/**
 * ajv as a reader of the sec API's OpenAPI document (JSON Schema 2020-12): the emulator's string
 * formats (STRING_FORMATS, their one definition) and the document's own keywords (`x-checks`,
 * `x-credential`, `x-pattern-rule`) known to it, everything else strict.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { STRING_FORMATS } from '../../src/emulators/core/index.js';

export function openApiAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, strictTypes: false });
  for (const [name, accepts] of Object.entries(STRING_FORMATS)) ajv.addFormat(name, accepts);
  ajv.addKeyword({ keyword: 'x-checks', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-credential', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-pattern-rule', schemaType: 'string' });
  return ajv;
}
