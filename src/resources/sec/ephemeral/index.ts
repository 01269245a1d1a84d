import type { EphemeralDef } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import accessToken from './access-token.js';
import agentAccessToken from './agent-access-token.js';

export const secEphemeralResources: EphemeralDef<any, SecClient>[] = [accessToken, agentAccessToken];
