/**
 * TLS in front of a plain loopback server (the sec emulator speaks plain HTTP): each TLS connection on
 * 127.0.0.1 is piped to the server behind, so a client reaches the emulator over https:// with the
 * given certificate.
 */
import { connect, type Socket } from 'node:net';
import { createServer } from 'node:tls';

export interface TlsFront {
  readonly port: number;
  close(): Promise<void>;
}

export async function startTlsFront(
  certificate: { readonly keyPem: string; readonly certPem: string },
  behind: string,
): Promise<TlsFront> {
  const { hostname, port: behindPort } = new URL(behind);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer({ key: certificate.keyPem, cert: certificate.certPem }, (clear) => {
    const upstream = connect(Number(behindPort), hostname);
    track(clear);
    track(upstream);
    clear.pipe(upstream).pipe(clear);
    clear.on('close', () => upstream.destroy());
    upstream.on('close', () => clear.destroy());
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
