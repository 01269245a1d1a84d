// The executable of the test provider `acme/nester` (test/support/nested-things.ts), which
// test/acceptance/nested-attributes.test.ts runs under the real clients through a wrapper shaped like
// bin/terraform-provider-*; its platform is the JSON file NESTER_STORE names. Served as any provider
// built on the framework is (packages/framework/src/serve.ts).
import { serve } from '../../packages/framework/src/index.js';
import { nesterProvider } from '../support/nested-things.js';

serve({ ...nesterProvider(), namespace: 'acme' });
