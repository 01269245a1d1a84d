import { field, type ContractBodies } from './language.js';

const template = field.object({
  name: field.string(),
  eventName: field.string(),
  description: field.string(),
  subject: field.string(),
});
const alerts = field.array(template, { minItems: 1 });

/** The request bodies of alert profiles: a create, and an update that replaces the templates alone. */
export const ALERT_PROFILE_BODIES: ContractBodies = {
  AlertProfiles: field.object({
    // Policies name a profile as `<profile>.<template>`, so a profile's name holds no dot.
    alertProfileId: field.string({ pattern: '^[A-Za-z0-9_-]+$', patternRule: 'letters, digits, "_" and "-" only' }),
    extends: field.string(),
    alerts,
  }),
  'AlertProfiles:update': field.object({ alerts }),
};
