import type { DataSourceDef } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import userProfile from '../user-profile.js';
import agentAccessToken from './agent-access-token.js';
import apiToken from './api-token.js';
import metricModule from './metric-module.js';

/** Every sec data source. */
export const secDataSources: DataSourceDef<any, SecClient>[] = [userProfile, agentAccessToken, apiToken, metricModule];
