import { serve } from './serve.js';
import def from '../resources/sec/index.js';

serve(def);
