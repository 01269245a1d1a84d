// The executable of the test provider `acme/mover` (test/support/moving-things.ts), which
// test/acceptance/moved-across-types.test.ts runs under the real Terraform CLI through a wrapper
// shaped like bin/terraform-provider-*; its platform is the JSON file MOVER_STORE names.
import { serve } from '../../src/providers/serve.js';
import { providerServiceOf } from '../../src/providers/service.js';
import { moverProvider } from '../support/moving-things.js';

serve({ namespace: 'acme', name: 'mover', version: '0.0.1' }, (log, identity) =>
  providerServiceOf(moverProvider(), log, identity),
);
