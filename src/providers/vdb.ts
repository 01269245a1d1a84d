// The vdb executable's entry: its start-up part; the service loads on first use (./serve.ts).
import { serve } from './serve.js';
import { VDB_VERSION } from '../resources/vdb/version.js';
import { createService } from './vdb-service.js';

serve({ namespace: 'keel', name: 'vdb', version: VDB_VERSION }, createService);
