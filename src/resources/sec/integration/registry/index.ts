import type { ResourceDef } from '@keel/provider-framework';
import type { SecClient } from '../../../../clients/sec/index.js';
import registryA from './registry-a.js';
import registryB from './registry-b.js';
import registryC from './registry-c.js';
import registryD from './registry-d.js';
import registryE from './registry-e.js';
import registryF from './registry-f.js';
import proxyScanner from './proxy-scanner.js';
import inlineScanner from './inline-scanner.js';

/**
 * The container registry and scanner integrations (docs/api/sec.md, "Registry kinds"), in the
 * references' order.
 */
export const registryResources: ResourceDef<any, SecClient>[] = [
  registryA,
  registryB,
  registryC,
  registryD,
  registryE,
  registryF,
  proxyScanner,
  inlineScanner,
];
