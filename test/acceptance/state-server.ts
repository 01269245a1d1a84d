/**
 * A remote state backend for the tests, as Terraform's and OpenTofu's `http` backend speak to one:
 * GET a state (404 when there is none), POST to store it, DELETE to remove it, on loopback. It keeps
 * every state in memory under its path, and counts how often each was written: a CI job's state lives
 * here, outside every runner's directory, as it does in a team's remote backend.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StateServer {
  /** The `address` of an `http` backend block for the state named `name`. */
  address(name: string): string;
  /** The stored state document, or undefined when none was written. */
  state(name: string): unknown;
  /** How many times the state was written. */
  writes(name: string): number;
  close(): Promise<void>;
}

export async function startStateServer(): Promise<StateServer> {
  const states = new Map<string, string>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://state').pathname.replace(/^\/state\//, ''));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET') {
        const held = states.get(name);
        if (held === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(held);
      } else if (req.method === 'POST') {
        states.set(name, Buffer.concat(chunks).toString('utf8'));
        counts.set(name, (counts.get(name) ?? 0) + 1);
        res.writeHead(200).end();
      } else if (req.method === 'DELETE') {
        states.delete(name);
        res.writeHead(200).end();
      } else res.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: (name) => `http://127.0.0.1:${port}/state/${encodeURIComponent(name)}`,
    state: (name) => {
      const held = states.get(name);
      return held === undefined ? undefined : JSON.parse(held);
    },
    writes: (name) => counts.get(name) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
