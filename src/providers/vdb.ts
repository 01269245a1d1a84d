import { serve } from './serve.js';
import def from '../resources/vdb/index.js';

await serve(def);
