// The executable's entry: Terraform starts it, and `serve` speaks the plugin protocol until it ends.
import { serve } from '@keel/provider-framework';
import { kv } from './provider.js';

serve(kv);
