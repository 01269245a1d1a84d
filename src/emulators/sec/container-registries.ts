import { field, invalid, quote, type Router } from '../core/index.js';
import { containerRegistryDataSpec, REGISTRY_TYPES } from '../../wire/sec-contract/container-registries.js';
import type { SecContext } from './context.js';
import { registerIntegrationRoutes, type IntegrationFamily } from './integrations.js';

/**
 * Container registries and scanners (docs/api/sec.md, "Registry kinds"): the generic integration routes
 * under /api/v2/ContainerRegistries. Every object has `type` ContVulnCfg; `data.registryType`
 * decides what `data` must hold (sec's contract, src/wire/sec-contract/container-registries.ts).
 * Scanners get a server token on create. Secrets are blanked on reads.
 */
export const CONTAINER_REGISTRIES_COLLECTION = 'ContainerRegistries';
export const CONTAINER_REGISTRY_TYPE = 'ContVulnCfg';

const SCANNER_TYPES = new Set(['PROXY_SCANNER', 'INLINE_SCANNER']);

export const CONTAINER_REGISTRIES: IntegrationFamily = {
  collection: CONTAINER_REGISTRIES_COLLECTION,
  label: 'container registry',
  // Only the type check uses this table; the spec of `data` comes from dataSpecOf.
  dataSpecs: { [CONTAINER_REGISTRY_TYPE]: field.object({ registryType: field.string({ oneOf: REGISTRY_TYPES }) }) },
  dataSpecOf: (_type, data, existing) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw invalid(data === undefined || data === null ? 'data is required' : 'data must be an object');
    }
    const record = data as Record<string, unknown>;
    const registryType = record.registryType;
    if (registryType === undefined || registryType === null) throw invalid('data.registryType is required');
    if (typeof registryType !== 'string') throw invalid('data.registryType must be a string');
    if (existing && existing.data.registryType !== registryType) {
      throw invalid(
        `data.registryType cannot be changed (the integration is of type ${quote(existing.data.registryType)})`,
      );
    }
    // Switching a RegistryA integration between role and access-key authentication needs a new integration.
    if (existing && registryType === 'REGISTRY_A' && existing.data.authType !== record.authType) {
      throw invalid(
        `data.authType cannot be changed (the integration uses ${quote(existing.data.authType)}); create a new ` +
          `integration instead`,
      );
    }
    if (!REGISTRY_TYPES.includes(registryType)) {
      throw invalid(
        `data.registryType ${quote(registryType)} is not supported; supported: ${REGISTRY_TYPES.join(', ')}`,
      );
    }
    return containerRegistryDataSpec(registryType, record);
  },
  issuesServerToken: (_type, data) => SCANNER_TYPES.has(String(data.registryType)),
};

export function registerContainerRegistryRoutes(router: Router, ctx: SecContext): void {
  registerIntegrationRoutes(router, ctx, CONTAINER_REGISTRIES);
}
