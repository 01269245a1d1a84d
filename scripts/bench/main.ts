/** `npm run bench -- <name> [args]`: runs one benchmark and prints its table. */
import { handshakeBench } from './handshake.js';
import { schemaBench } from './schema.js';
import { codecBench } from './codec.js';
import { scaleBench } from './scale.js';
import { rpcBench } from './rpc.js';
import { sessionsBench } from './sessions.js';
import { curveBench } from './curve.js';
import { journalBench } from './journal.js';
import { lookalikesBench } from './lookalikes.js';
import { ensureCodeCaches } from './code-caches.js';
import { authorReleaseBench } from './author-release.js';

const benches: Record<string, (args: string[]) => Promise<void>> = {
  handshake: handshakeBench,
  schema: schemaBench,
  codec: codecBench,
  scale: scaleBench,
  rpc: rpcBench,
  sessions: sessionsBench,
  curve: curveBench,
  journal: journalBench,
  lookalikes: lookalikesBench,
  'author-release': authorReleaseBench,
};
const [name, ...args] = process.argv.slice(2);
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(benches).join('|')}> [args]`);
  process.exit(2);
}
// Every benchmark but the codec's and the journal's starts the providers: they must start as users' do.
if (name !== 'codec' && name !== 'journal') ensureCodeCaches();
await bench(args);
