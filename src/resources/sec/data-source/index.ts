import type { DataSourceDef } from '../../../engine/contracts.js';
import type { SecClient } from '../../../clients/sec/index.js';
import userProfile from '../user-profile.js';
import agentAccessToken from './agent-access-token.js';

/** Every sec data source. */
export const secDataSources: DataSourceDef<any, SecClient>[] = [userProfile, agentAccessToken];
