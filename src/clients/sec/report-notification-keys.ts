// Report flags the resource definitions need at start-up, apart from the client's zod schemas
// (./report-rules.ts), which load only once the provider is configured.

import { REPORT_NOTIFICATION_KEYS } from '../../wire/sec-contract/report-rules.js';

/** Every notification flag a report rule carries, as the platform's contract lists them. */
export { REPORT_NOTIFICATION_KEYS };
export type ReportNotificationKey = (typeof REPORT_NOTIFICATION_KEYS)[number];
export type ReportNotifications = Record<ReportNotificationKey, boolean>;
