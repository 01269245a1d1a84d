import {
  HttpError,
  holds,
  invalid,
  json,
  jsonSchemaOf,
  keepStoredSecrets,
  maskSecrets,
  noContent,
  prefixedId,
  quote,
  quoteKey,
  secretValue,
  validate,
  type EmulatorRequest,
  type JsonSchema,
  type ObjectSpec,
  type Router,
} from '../core/index.js';
import { INTEGRATION_FIELDS } from '../../wire/sec-contract/integrations.js';
import { API_PREFIX, type SecContext } from './context.js';

/**
 * The platform's generic "integration" object, shared by alert channels, cloud accounts and
 * container registries: a few common fields around a type-specific `data` object.
 */
export interface IntegrationRecord {
  intgGuid: string;
  name: string;
  type: string;
  enabled: 0 | 1;
  isOrg: 0 | 1;
  createdOrUpdatedTime: string;
  createdOrUpdatedBy: string;
  state: IntegrationState;
  props: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Scanner-style integrations only (see IntegrationFamily.issuesServerToken). */
  serverToken?: { serverToken: string; uri: string };
}

export interface IntegrationState {
  ok: boolean;
  lastUpdatedTime: number;
  lastSuccessfulTime: number;
  details: Record<string, unknown>;
}

/** A family of integrations: which `type` strings exist and what their `data` must look like. */
export interface IntegrationFamily {
  /** Store collection and path segment, e.g. "AlertChannels". */
  readonly collection: string;
  /** Used in messages, e.g. "alert channel". */
  readonly label: string;
  readonly dataSpecs: Readonly<Record<string, ObjectSpec>>;
  /**
   * Optional: the spec of `data` where `type` alone does not decide it (container registries share
   * one type and carry their kind in data.registryType). Throws `invalid(...)` for data it cannot
   * classify, or that an update (`existing` given) may not reclassify. Absent: `dataSpecs[type]`.
   */
  readonly dataSpecOf?: (type: string, data: unknown, existing?: IntegrationRecord) => ObjectSpec;
  /**
   * Optional: whether a new object gets a server token (`serverToken{serverToken, uri}` in the
   * response), as scanners do. The token is issued on create and kept by updates.
   */
  readonly issuesServerToken?: (type: string, data: Record<string, unknown>) => boolean;
}

/** Fields clients may send back from a read; they are ignored rather than refused. */
const READ_ONLY_FIELDS = new Set([
  'isOrg',
  'createdOrUpdatedTime',
  'createdOrUpdatedBy',
  'state',
  'props',
  'serverToken',
]);
const WRITABLE_FIELDS = new Set(['intgGuid', 'name', 'type', 'enabled', 'data']);

/** POST, list, GET, PATCH (full replace) and DELETE for one family. */
export function registerIntegrationRoutes(router: Router, ctx: SecContext, family: IntegrationFamily): void {
  const base = `${API_PREFIX}/${family.collection}`;
  const parts = Object.fromEntries(Object.entries(family.dataSpecs).map(([type, spec]) => [`data of ${type}`, spec]));
  router.document('POST', base, { body: integrationBodySchema(family), parts });
  router.document('PATCH', `${base}/:intgGuid`, { body: integrationBodySchema(family), parts });

  router.add('POST', base, (request) => {
    const input = parseIntegrationBody(family, request, undefined);
    const now = ctx.clock.now();
    const record: IntegrationRecord = {
      intgGuid: prefixedId(ctx.account.toUpperCase()),
      ...input,
      isOrg: 0,
      createdOrUpdatedTime: new Date(now).toISOString(),
      createdOrUpdatedBy: ctx.username,
      state: { ok: true, lastUpdatedTime: now, lastSuccessfulTime: now, details: {} },
      props: {},
    };
    if (family.issuesServerToken?.(record.type, record.data)) {
      record.serverToken = { serverToken: secretValue(24), uri: `https://${ctx.account}.sec-platform.example` };
    }
    ctx.store.put(family.collection, record.intgGuid, record);
    return json(201, { data: presentIntegration(family, record) });
  });

  router.add('GET', base, () => ({
    status: 200,
    body: {
      data: ctx.store.list<IntegrationRecord>(family.collection).map((record) => presentIntegration(family, record)),
    },
  }));

  router.add('GET', `${base}/:intgGuid`, (request) =>
    json(200, { data: presentIntegration(family, findIntegration(ctx, family, request.params.intgGuid!)) }),
  );

  router.add('PATCH', `${base}/:intgGuid`, (request) => {
    const existing = findIntegration(ctx, family, request.params.intgGuid!);
    const input = parseIntegrationBody(family, request, existing);
    const now = ctx.clock.now();
    const updated: IntegrationRecord = {
      ...existing,
      ...input,
      createdOrUpdatedTime: new Date(now).toISOString(),
      createdOrUpdatedBy: ctx.username,
      state: { ...existing.state, lastUpdatedTime: now },
    };
    ctx.store.put(family.collection, updated.intgGuid, updated);
    return json(200, { data: presentIntegration(family, updated) });
  });

  router.add('DELETE', `${base}/:intgGuid`, (request) => {
    const existing = findIntegration(ctx, family, request.params.intgGuid!);
    ctx.store.remove(family.collection, existing.intgGuid);
    return noContent();
  });
}

export function findIntegration(ctx: SecContext, family: IntegrationFamily, intgGuid: string): IntegrationRecord {
  const record = ctx.store.get<IntegrationRecord>(family.collection, intgGuid);
  if (!record) throw new HttpError(404, `${family.label} ${quote(intgGuid)} not found`);
  return record;
}

/** What clients see: secrets blanked, as the platform does. */
export function presentIntegration(family: IntegrationFamily, record: IntegrationRecord): IntegrationRecord {
  const spec = dataSpecOfRecord(family, record);
  const data = spec ? (maskSecrets(spec, record.data) as Record<string, unknown>) : record.data;
  return { ...record, data };
}

/** The stored object's spec; a stored object that no longer classifies is shown unmasked rather than failing reads. */
function dataSpecOfRecord(family: IntegrationFamily, record: IntegrationRecord): ObjectSpec | undefined {
  if (!family.dataSpecOf) return family.dataSpecs[record.type];
  try {
    return family.dataSpecOf(record.type, record.data);
  } catch {
    return undefined;
  }
}

type IntegrationInput = Pick<IntegrationRecord, 'name' | 'type' | 'enabled' | 'data'>;

/** The body of a create or an update as JSON Schema: `data` by `type` (parseIntegrationBody says it in code). */
function integrationBodySchema(family: IntegrationFamily): JsonSchema {
  const types = Object.keys(family.dataSpecs);
  return {
    type: 'object',
    properties: {
      intgGuid: { type: 'string', description: 'On an update only, the one in the path.' },
      name: jsonSchemaOf(INTEGRATION_FIELDS.name),
      type: { enum: types },
      enabled: { type: 'integer', enum: [0, 1] },
      data: { type: 'object' },
    },
    required: ['name', 'type', 'enabled', 'data'],
    allOf: types.map((type) => ({
      if: { properties: { type: { const: type } }, required: ['type'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then`, not a thenable.
      then: { properties: { data: jsonSchemaOf(family.dataSpecs[type]!) } },
    })),
    ...(family.dataSpecOf ? { 'x-checks': `the ${family.label}'s data is judged by its kind, which data says` } : {}),
  };
}

/**
 * Validates a create (no `existing`) or full-replace update body. `type` is fixed at creation;
 * an update may repeat it but not change it.
 */
function parseIntegrationBody(
  family: IntegrationFamily,
  request: EmulatorRequest,
  existing: IntegrationRecord | undefined,
): IntegrationInput {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('request body must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  // What the integration holds beyond these (set in the console) may come back as it is.
  for (const [key, value] of Object.entries(record)) {
    if (!WRITABLE_FIELDS.has(key) && !READ_ONLY_FIELDS.has(key) && !holds(existing, key, value))
      throw invalid(`${quoteKey(key)} is not a recognised field`);
  }
  if (record.intgGuid !== undefined && record.intgGuid !== (existing?.intgGuid ?? record.intgGuid)) {
    throw invalid(`intgGuid in the body (${quote(record.intgGuid)}) does not match the path`);
  }
  if (existing === undefined && record.intgGuid !== undefined) {
    throw invalid('intgGuid is assigned by the server and must not be sent on create');
  }

  const type = parseType(family, record.type, existing);
  validate(INTEGRATION_FIELDS.name, record.name, 'name');
  const enabled = record.enabled;
  if (enabled === undefined) throw invalid('enabled is required (0 or 1)');
  if (enabled !== 0 && enabled !== 1) throw invalid(`enabled must be 0 or 1 (got ${quote(enabled)})`);
  const dataSpec = family.dataSpecOf ? family.dataSpecOf(type, record.data, existing) : family.dataSpecs[type]!;
  const data = existing ? keepStoredSecrets(dataSpec, record.data, existing.data) : record.data;
  validate(dataSpec, data, 'data', existing?.data);
  return { name: record.name as string, type, enabled, data: data as Record<string, unknown> };
}

function parseType(family: IntegrationFamily, value: unknown, existing: IntegrationRecord | undefined): string {
  if (existing) {
    if (value !== undefined && value !== existing.type) {
      throw invalid(`type cannot be changed (the ${family.label} is of type ${quote(existing.type)})`);
    }
    return existing.type;
  }
  if (value === undefined) throw invalid('type is required');
  if (typeof value !== 'string' || !(value in family.dataSpecs)) {
    const supported = Object.keys(family.dataSpecs).join(', ');
    throw invalid(`type ${quote(value)} is not a supported ${family.label} type; supported: ${supported}`);
  }
  return value;
}
