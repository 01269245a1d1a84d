import { serve } from './serve.js';
import def from '../resources/sec/index.js';

await serve(def);
