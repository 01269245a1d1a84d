/**
 * The sec API's machine-readable description: an OpenAPI 3.1 document of every route the emulator
 * serves, each request body's rules (bounds, enums, formats, required fields, item counts) taken from
 * sec's contract, the very tables the emulator validates with (src/wire/sec-contract), so that the
 * description and the enforcement cannot drift; the contract's bodies are its `components.schemas`.
 * The emulator serves it at `GET /openapi.json` (no token needed); docs/api/sec.md, "Field rules" says
 * how it is read.
 */
import { SEC_CONTRACT, jsonSchemaOf } from '../../wire/sec-contract/index.js';
import type { DescribedRoute, JsonSchema, Router } from '../core/index.js';

/** Where the emulator serves the document. */
export const OPENAPI_PATH = '/openapi.json';

const ERROR = {
  description: 'The platform refuses the request: `{"message": "..."}`, naming the field and the rule.',
  content: {
    'application/json': {
      schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  },
};

/** An operation's id from its method and path: `post_AlertRules`, `patch_AlertRules_mcGuid`. */
function operationId(route: DescribedRoute): string {
  const parts = route.path
    .split('/')
    .filter((p) => p !== '' && p !== 'api' && p !== 'v2')
    .map((p) => p.replace(/[{}]/g, ''));
  return [route.method.toLowerCase(), ...parts].join('_');
}

function operation(route: DescribedRoute): Record<string, unknown> {
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  return {
    operationId: operationId(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      '2XX': { description: 'Done: `{"data": ...}` (a delete answers 204 with no body).' },
      '400': ERROR,
      '401': ERROR,
      '404': ERROR,
      '409': ERROR,
      '429': ERROR,
    },
    ...(route.path === '/api/v2/access/tokens' ? { security: [] } : {}),
  };
}

/** The OpenAPI 3.1 document of the routes `router` serves. */
export function secOpenApi(router: Router, version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of router.describe()) {
    if (route.path === OPENAPI_PATH) continue;
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sec management API (as the emulator serves it)',
      version,
      description:
        'Every request body is validated against the schema given here before its handler runs; rules ' +
        'across fields that JSON Schema cannot say are given in words as `x-checks`. Formats beyond ' +
        "JSON Schema's own: `https-url`, `json-data-url`, `pem-private-key`.",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      // The contract's bodies by its names (`AlertChannels:EmailUser` as `AlertChannels.EmailUser`: a
      // component's name takes no colon), so that a rule is found by the name the code gives it.
      schemas: Object.fromEntries(
        Object.entries(SEC_CONTRACT).map(([name, spec]) => [name.replace(':', '.'), jsonSchemaOf(spec)]),
      ),
    },
    paths,
  };
}
