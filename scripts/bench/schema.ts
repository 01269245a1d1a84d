/**
 * schema: GetProviderSchema latency (first call and warm), response size, and the provider
 * process's peak RSS afterwards, beside bare node (targets: first call < 20 ms; RSS ≤ 1.5× node).
 *
 * The first call is timed on a ready connection (health-checked, as in the handshake benchmark and
 * as go-plugin's client dials before its first call), so that it measures the provider's answer
 * and not the TLS handshake; it is the median over several fresh processes.
 */
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { decodeMessage, messageType } from '../../packages/framework/src/server/proto.js';
import { bareNode, bin, median, mib, ms, peakRss, readFlags, table, machine } from './util.js';

export async function schemaBench(args: string[]): Promise<void> {
  const [warm, fresh] = readFlags(args, 'schema [warm-runs] [starts]', {}, { positionals: 2 });
  const warmRuns = Number(warm ?? 50);
  const starts = Number(fresh ?? 7);
  const node = bareNode(5);
  const rows: [string, string][] = [['bare node -e 0 peak RSS', mib(node.rssBytes)]];
  for (const { name: provider } of PROJECT_PROVIDERS) {
    // Raw bytes both ways: the figure is the provider's (and the wire's), not our client's decoding.
    const empty = Buffer.alloc(0);
    const firstTimes: number[] = [];
    const launchReady = async () => {
      const launched = await launchProvider(bin(provider));
      if ((await launched.health()) !== 'SERVING') throw new Error(`${provider}: not serving`);
      return launched;
    };
    for (let i = 1; i < starts; i++) {
      const p = await launchReady();
      const t = performance.now();
      await p.callRaw('GetProviderSchema', empty);
      firstTimes.push(performance.now() - t);
      await p.shutdown();
    }
    const p = await launchReady();
    let t = performance.now();
    const firstBytes = await p.callRaw('GetProviderSchema', empty);
    firstTimes.push(performance.now() - t);
    const warm: number[] = [];
    for (let i = 0; i < warmRuns; i++) {
      t = performance.now();
      await p.callRaw('GetProviderSchema', empty);
      warm.push(performance.now() - t);
    }
    const first = decodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), firstBytes);
    const bytes = firstBytes.length;
    const rss = peakRss(p.pid);
    const types =
      Object.keys(first.resource_schemas ?? {}).length + Object.keys(first.data_source_schemas ?? {}).length;
    rows.push([
      `${provider}: first GetProviderSchema (median of ${starts} starts)`,
      `${ms(median(firstTimes))}  (target < 20 ms)`,
    ]);
    rows.push([`${provider}: warm GetProviderSchema (median)`, ms(median(warm))]);
    rows.push([`${provider}: response size (${types} types)`, `${(bytes / 1024).toFixed(1)} KiB`]);
    rows.push([
      `${provider}: provider peak RSS`,
      `${mib(rss)}  (${(rss / node.rssBytes).toFixed(2)}× bare node; target ≤ 1.50×)`,
    ]);
    await p.shutdown();
  }
  table(`schema — ${machine()}`, rows);
}
