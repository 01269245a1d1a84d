/**
 * The sec executable's service (../framework/service.ts); in the executable, its second bundle
 * (scripts/bundle.mjs).
 */
import def from '../resources/sec/index.js';
import { providerServiceOf } from '@keel/provider-framework';
import type { CreateService } from './serve.js';

// The engine's variables keep the names the releases have always read (KEEL_CREATE_RECORDS).
export const createService: CreateService = (log, identity) =>
  providerServiceOf(def, log, identity, { variablePrefix: 'KEEL' });
