/** The vdb executable's service (./service.ts); in the executable, its second bundle (scripts/bundle.mjs). */
import def from '../resources/vdb/index.js';
import { providerServiceOf } from './service.js';
import type { CreateService } from './serve.js';

export const createService: CreateService = (log, identity) => providerServiceOf(def, log, identity);
