// The sec executable's entry: its start-up part; the service loads on first use (./serve.ts).
import { serve } from './serve.js';
import { SEC_VERSION } from '../resources/sec/version.js';
import { createService } from './sec-service.js';

serve({ namespace: 'keel', name: 'sec', version: SEC_VERSION }, createService);
