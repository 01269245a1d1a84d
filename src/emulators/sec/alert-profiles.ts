import {
  declaredFields,
  HttpError,
  invalid,
  json,
  noContent,
  quote,
  validate,
  withSentFields,
  type Router,
} from '../core/index.js';
import { ALERT_PROFILE_BODIES } from '../../wire/sec-contract/alert-profiles.js';
import { BUILT_IN_ALERT_PROFILES } from './catalogue/alert-profiles.js';
import { API_PREFIX, type SecContext } from './context.js';

/** Store collection of alert profiles, keyed by `alertProfileId`. */
export const ALERT_PROFILES = 'AlertProfiles';

/** Names starting with this are the platform's own profiles; users cannot create such names. */
export const RESERVED_PROFILE_PREFIX = 'SEC_';

export interface AlertTemplateRecord {
  name: string;
  eventName: string;
  description: string;
  subject: string;
}

export interface AlertProfileRecord {
  alertProfileId: string;
  /** "" only for the built-in base profile, which extends nothing. */
  extends: string;
  fields: { name: string }[];
  descriptionKeys: { name: string; spec: string }[];
  alerts: AlertTemplateRecord[];
}

const BASE = `${API_PREFIX}/${ALERT_PROFILES}`;

/** `{{FIELD}}` placeholders inside template texts. */
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

const createSpec = ALERT_PROFILE_BODIES.AlertProfiles!;
const updateSpec = ALERT_PROFILE_BODIES['AlertProfiles:update']!;

export function registerAlertProfileRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: createSpec });
  router.document('PATCH', `${BASE}/:id`, { body: updateSpec });
  for (const profile of builtInProfiles()) ctx.store.put(ALERT_PROFILES, profile.alertProfileId, profile);

  router.add('POST', BASE, (request) => {
    validate(createSpec, request.body, 'body');
    const body = request.body as { alertProfileId: string; extends: string; alerts: AlertTemplateRecord[] };
    const id = body.alertProfileId;
    if (id.startsWith(RESERVED_PROFILE_PREFIX)) {
      throw invalid(
        `body.alertProfileId: names starting with ${RESERVED_PROFILE_PREFIX} are reserved for the platform's ` +
          `built-in profiles (got ${quote(id)})`,
      );
    }
    if (ctx.store.has(ALERT_PROFILES, id))
      throw new HttpError(409, `an alert profile named ${quote(id)} already exists`);
    const base = ctx.store.get<AlertProfileRecord>(ALERT_PROFILES, body.extends);
    if (!base) throw invalid(`body.extends: there is no alert profile ${quote(body.extends)} to extend`);
    checkTemplates(body.alerts, base);
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const record: AlertProfileRecord = {
      ...declaredFields(createSpec, body),
      alertProfileId: id,
      extends: base.alertProfileId,
      // A profile maps the same query fields as the one it extends.
      fields: base.fields,
      descriptionKeys: base.descriptionKeys,
      alerts: body.alerts.map(templateOf),
    };
    ctx.store.put(ALERT_PROFILES, id, record);
    return json(201, { data: record });
  });

  router.add('GET', BASE, () => json(200, { data: ctx.store.list<AlertProfileRecord>(ALERT_PROFILES) }));

  router.add('GET', `${BASE}/:id`, (request) => json(200, { data: findProfile(ctx, request.params.id!) }));

  router.add('PATCH', `${BASE}/:id`, (request) => {
    const existing = findProfile(ctx, request.params.id!);
    if (isBuiltIn(existing)) throw invalid(`the built-in alert profile ${existing.alertProfileId} cannot be changed`);
    if (typeof request.body === 'object' && request.body !== null) {
      for (const key of ['alertProfileId', 'extends']) {
        if (key in request.body) throw invalid(`body.${key} cannot be changed; create a new alert profile instead`);
      }
    }
    validate(updateSpec, request.body, 'body');
    const alerts = (request.body as { alerts: AlertTemplateRecord[] }).alerts;
    // The profile maps the same fields as the one it extends.
    checkTemplates(alerts, existing);
    const updated: AlertProfileRecord = {
      ...withSentFields(existing, updateSpec, request.body),
      alerts: alerts.map(templateOf),
    };
    ctx.store.put(ALERT_PROFILES, updated.alertProfileId, updated);
    return json(200, { data: updated });
  });

  router.add('DELETE', `${BASE}/:id`, (request) => {
    const existing = findProfile(ctx, request.params.id!);
    if (isBuiltIn(existing)) throw invalid(`the built-in alert profile ${existing.alertProfileId} cannot be deleted`);
    ctx.store.remove(ALERT_PROFILES, existing.alertProfileId);
    return noContent();
  });
}

export function findProfile(ctx: SecContext, id: string): AlertProfileRecord {
  const record = ctx.store.get<AlertProfileRecord>(ALERT_PROFILES, id);
  if (!record) throw new HttpError(404, `alert profile ${quote(id)} not found`);
  return record;
}

/** The templates a policy can name in `<profile>.<template>`: the profile's own and those it inherits. */
export function templateNames(ctx: SecContext, profile: AlertProfileRecord): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  let current: AlertProfileRecord | undefined = profile;
  while (current && !seen.has(current.alertProfileId)) {
    seen.add(current.alertProfileId);
    for (const alert of current.alerts) names.add(alert.name);
    current = current.extends ? ctx.store.get<AlertProfileRecord>(ALERT_PROFILES, current.extends) : undefined;
  }
  return names;
}

const isBuiltIn = (profile: AlertProfileRecord) => profile.alertProfileId.startsWith(RESERVED_PROFILE_PREFIX);

function templateOf(alert: AlertTemplateRecord): AlertTemplateRecord {
  return { name: alert.name, eventName: alert.eventName, description: alert.description, subject: alert.subject };
}

/** Template names are unique, and texts may only use the fields `base` maps. */
function checkTemplates(alerts: AlertTemplateRecord[], base: AlertProfileRecord): void {
  const known = new Set(base.fields.map((f) => f.name));
  const seen = new Set<string>();
  alerts.forEach((alert, index) => {
    if (seen.has(alert.name))
      throw invalid(`body.alerts[${index}].name: the template name ${quote(alert.name)} is used twice`);
    seen.add(alert.name);
    for (const key of ['subject', 'description'] as const) {
      for (const match of alert[key].matchAll(PLACEHOLDER)) {
        if (!known.has(match[1]!)) {
          throw invalid(
            `body.alerts[${index}].${key}: {{${match[1]}}} is not a field of ${base.alertProfileId}; known ` +
              `fields: ${[...known].join(', ')}`,
          );
        }
      }
    }
  });
}

/**
 * The platform's own profiles, present in every account; custom profiles extend them. A profile
 * lists its inherited fields with its own, as the platform answers.
 */
function builtInProfiles(): AlertProfileRecord[] {
  const byId = new Map(BUILT_IN_ALERT_PROFILES.map((p) => [p.alertProfileId, p]));
  const allFields = (id: string): string[] => {
    const entry = byId.get(id);
    return entry ? [...(entry.extends ? allFields(entry.extends) : []), ...entry.fields] : [];
  };
  return BUILT_IN_ALERT_PROFILES.map((entry) => {
    const fieldNames = [...new Set(allFields(entry.alertProfileId))];
    return {
      alertProfileId: entry.alertProfileId,
      extends: entry.extends,
      fields: fieldNames.map((name) => ({ name })),
      descriptionKeys: fieldNames.map((name) => ({ name, spec: `{{${name}}}` })),
      alerts: entry.alerts.map(templateOf),
    };
  });
}
