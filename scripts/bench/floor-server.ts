/**
 * The Node floor for `npm run bench -- handshake`: the least a Node go-plugin server can do. Plain
 * node:http2 with mutual TLS (the client certificate from PLUGIN_CLIENT_CERT is the only trust root,
 * as in the providers), a certificate built over node:crypto, the go-plugin handshake line, and one
 * gRPC answer: grpc.health.v1.Health/Check → SERVING. GRPCController/Shutdown exits; anything else
 * is UNIMPLEMENTED. Bundled to dist/bundle/bench-floor-server.cjs (scripts/bundle.mjs) so it loads
 * as one CommonJS file, like the providers.
 */
import { createSecureServer } from 'node:http2';
import { selfSignedCertificate } from '../../packages/framework/src/server/self-signed.js';

const COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
if (process.env.TF_PLUGIN_MAGIC_COOKIE !== COOKIE || !process.env.PLUGIN_CLIENT_CERT) {
  process.stderr.write('bench floor server: start me as a go-plugin host does, with AutoMTLS\n');
  process.exit(1);
}

const cert = selfSignedCertificate();
const server = createSecureServer({
  key: cert.keyPem,
  cert: cert.certPem,
  ca: process.env.PLUGIN_CLIENT_CERT,
  requestCert: true,
  rejectUnauthorized: true,
  minVersion: 'TLSv1.2',
});
// grpc.health.v1.HealthCheckResponse { status: SERVING }, length-prefixed; an empty message.
const SERVING = Buffer.from([0, 0, 0, 0, 2, 0x08, 0x01]);
const EMPTY = Buffer.from([0, 0, 0, 0, 0]);

server.on('stream', (stream, headers) => {
  const path = headers[':path'];
  stream.on('error', () => undefined);
  stream.resume(); // the request body is not needed
  const answer = (message: Buffer, then?: () => void) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => {
      stream.sendTrailers({ 'grpc-status': '0' });
      then?.();
    });
    stream.end(message);
  };
  if (path === '/grpc.health.v1.Health/Check') answer(SERVING);
  else if (path === '/plugin.GRPCController/Shutdown') answer(EMPTY, () => setTimeout(() => process.exit(0), 10));
  else stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const field = cert.certDer.toString('base64').replace(/=+$/, '');
  process.stdout.write(`1|6|tcp|127.0.0.1:${port}|grpc|${field}\n`);
});
