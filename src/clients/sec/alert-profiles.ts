import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, partialUpdate, placeDeclared, readingDeclared } from './declared.js';
import { envelope, optionalText } from './wire.js';

/** An alert template: how one kind of query result becomes an alert. */
export interface AlertTemplate {
  /** What policies name after the profile: `<profile>.<template>`. */
  readonly name: string;
  readonly eventName: string;
  readonly description: string;
  readonly subject: string;
}

/** An alert profile: templates on top of the fields of the profile it extends. */
export interface AlertProfile {
  /** The profile's name, which is also its key. */
  readonly alertProfileId: string;
  /** The profile it extends; built-in profiles extend nothing (""). */
  readonly extends: string;
  /** Names of the fields templates may use as `{{FIELD}}`. */
  readonly fields: readonly string[];
  readonly descriptionKeys: readonly { readonly name: string; readonly spec: string }[];
  readonly alerts: readonly AlertTemplate[];
}

export interface AlertProfileInput extends Declaring {
  readonly alertProfileId: string;
  readonly extends: string;
  readonly alerts: readonly AlertTemplate[];
}

export interface AlertProfileUpdate extends Declaring {
  readonly alerts: readonly AlertTemplate[];
}

export interface AlertProfilesApi {
  /** ApiError 'invalid' for a reserved name or an unknown `extends`; 'conflict' when the name is taken. */
  create(input: AlertProfileInput, options?: CallOptions): Promise<AlertProfile>;
  get(alertProfileId: string, options?: CallOptions): Promise<AlertProfile>;
  list(options?: CallOptions): Promise<AlertProfile[]>;
  /** Only the templates (and what `AlertProfiles:update` declares) can change; its name and `extends` cannot. */
  update(alertProfileId: string, input: AlertProfileUpdate, options?: CallOptions): Promise<AlertProfile>;
  delete(alertProfileId: string, options?: CallOptions): Promise<void>;
}

const BASE = '/api/v2/AlertProfiles';

const templateSchema = z.object({
  name: z.string(),
  eventName: z.string(),
  description: z.string(),
  subject: z.string(),
});

const profileSchema = readingDeclared(
  z.object({
    alertProfileId: z.string().min(1),
    extends: optionalText,
    fields: z
      .array(z.object({ name: z.string() }))
      .nullish()
      .transform((fields) => (fields ?? []).map((field) => field.name)),
    descriptionKeys: z
      .array(z.object({ name: z.string(), spec: z.string() }))
      .nullish()
      .transform((keys) => keys ?? []),
    alerts: z
      .array(templateSchema)
      .nullish()
      .transform((alerts) => alerts ?? []),
  }),
  'AlertProfiles',
);

const one = envelope(profileSchema);
const many = envelope(z.array(profileSchema));

const templateBody = (alerts: readonly AlertTemplate[]) =>
  alerts.map(({ name, eventName, description, subject }) => ({ name, eventName, description, subject }));

export function alertProfilesApi(http: SecHttp): AlertProfilesApi {
  const itemCall = (method: 'GET' | 'PATCH' | 'DELETE', id: string) =>
    ({ method, path: `${BASE}/${segment(id)}`, operation: `${method} ${BASE}/{alertProfileId}` }) as const;
  return {
    async create(input, options) {
      const body = placeDeclared(
        { alertProfileId: input.alertProfileId, extends: input.extends, alerts: templateBody(input.alerts) },
        input.declared,
      );
      return (await http.json({ method: 'POST', path: BASE, operation: `POST ${BASE}`, body }, one, options)).data;
    },
    async get(alertProfileId, options) {
      return (await http.json(itemCall('GET', alertProfileId), one, options)).data;
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async update(alertProfileId, input, options) {
      const body = placeDeclared(
        { alerts: templateBody(input.alerts) },
        input.declared,
        partialUpdate('AlertProfiles:update'),
      );
      return (await http.json({ ...itemCall('PATCH', alertProfileId), body }, one, options)).data;
    },
    async delete(alertProfileId, options) {
      await http.empty(itemCall('DELETE', alertProfileId), options);
    },
  };
}
