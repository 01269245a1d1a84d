import { serve } from './serve.js';
import def from '../resources/vdb/index.js';

serve(def);
