import type { ResourceDef } from '../../../engine/contracts.js';
import type { SecClient } from '../../../clients/sec/index.js';
import email from './email.js';

/** Every alert channel resource, in the seed's order (on-call and webhook last, DECISIONS). */
export const alertChannelResources: ResourceDef<any, SecClient>[] = [email];
