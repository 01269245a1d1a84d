// The executable of the test provider `acme/mover` (test/support/moving-things.ts), which
// test/acceptance/moved-across-types.test.ts runs under the real Terraform CLI through a wrapper
// shaped like bin/terraform-provider-*; its platform is the JSON file MOVER_STORE names. Served as
// any provider built on the framework is (packages/framework/src/serve.ts).
import { serve } from '../../packages/framework/src/index.js';
import { moverProvider } from '../support/moving-things.js';

serve({ ...moverProvider(), namespace: 'acme' });
