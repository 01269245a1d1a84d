/**
 * An HTTP CONNECT proxy for tests, on 127.0.0.1 (node's http server parses the CONNECT): it records
 * every tunnel asked of it and opens each to the loopback port `route` gives for the target
 * (`host:port` as asked), or answers with a status when `route` gives one ({ status }), or never answers
 * ('silent'). With `tls`, it is an https:// proxy: the client speaks TLS to it, then TLS again inside.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type Socket } from 'node:net';

export interface Tunnel {
  /** host:port, as the client asked. */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
}

export type Route = (target: string) => number | { status: number } | 'silent';

export interface ConnectProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly tunnels: Tunnel[];
  close(): Promise<void>;
}

export async function startConnectProxy(
  route: Route,
  tls?: { readonly keyPem: string; readonly certPem: string },
): Promise<ConnectProxy> {
  const tunnels: Tunnel[] = [];
  const sockets = new Set<Socket>();
  const refuse = (_req: unknown, res: { writeHead(status: number): { end(): void } }) => res.writeHead(405).end();
  const server = tls ? createTlsServer({ key: tls.keyPem, cert: tls.certPem }, refuse) : createServer(refuse);
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    client.on('error', () => undefined);
    const target = req.url ?? '';
    tunnels.push({ target, headers: req.headers });
    const to = route(target);
    if (to === 'silent') return;
    if (typeof to !== 'number') {
      client.end(`HTTP/1.1 ${to.status} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(to, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
