import type { ResourceDef } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import cloudAEventBus from './cloud-a-event-bus.js';
import cloudAObjectStore from './cloud-a-object-store.js';
import teamsA from './teams-a.js';
import teamsB from './teams-b.js';
import metrics from './metrics.js';
import email from './email.js';
import cloudBPubSub from './cloud-b-pub-sub.js';
import { trackerCloud, trackerServer } from './tracker.js';
import observ from './observ.js';
import pager from './pager.js';
import siem from './siem.js';
import ticketing from './ticketing.js';
import chat from './chat.js';
import logSink from './log-sink.js';
import onCall from './on-call.js';
import webhook from './webhook.js';

/**
 * Every alert channel resource, in the seed's order, on-call and webhook last
 * (docs/decisions.md, "Alert channel types").
 */
export const alertChannelResources: ResourceDef<any, SecClient>[] = [
  cloudAEventBus,
  cloudAObjectStore,
  teamsA,
  teamsB,
  metrics,
  email,
  cloudBPubSub,
  trackerCloud,
  trackerServer,
  observ,
  pager,
  siem,
  ticketing,
  chat,
  logSink,
  onCall,
  webhook,
];
