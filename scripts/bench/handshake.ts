/**
 * handshake: time from exec to a ready, health-checked mTLS connection, as go-plugin's client sees
 * it, over many starts, beside bare `node -e 0` measured in the same run (target ≤ 1.3×).
 */
import { launchProvider } from '../../src/tfclient/launch.js';
import { generateCertificate } from '../../src/server/tls.js';
import { bareNode, bin, median, ms, table, machine } from './util.js';

export async function handshakeBench(args: string[]): Promise<void> {
  const runs = Number(args[0] ?? 20);
  await generateCertificate(); // load the certificate library once, so the client side costs little
  const rows: [string, string][] = [];
  const node = bareNode(runs);
  rows.push(['bare node -e 0 (median wall)', ms(node.wallMs)]);
  for (const provider of ['sec', 'vdb']) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const p = await launchProvider(bin(provider));
      const status = await p.health();
      times.push(performance.now() - t);
      if (status !== 'SERVING') throw new Error(`health: ${status}`);
      await p.shutdown();
    }
    const m = median(times);
    rows.push([`${provider}: exec → health-checked mTLS (median of ${runs})`, `${ms(m)}  (${(m / node.wallMs).toFixed(2)}× bare node; target ≤ 1.30×)`]);
  }
  table(`handshake — ${machine()}`, rows);
}
