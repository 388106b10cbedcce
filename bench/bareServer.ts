/**
 * The baseline: a bare `node:http` server answering every request with the same bytes the gateway
 * returned for the market (BENCH_BARE_BODY_BASE64), as `application/json; charset=utf-8` like Koa
 * does. Listens on 127.0.0.1:PORT (0 = any) and logs `{"msg":"listening","url":...}`.
 */
import http from 'node:http';

const body = Buffer.from(process.env.BENCH_BARE_BODY_BASE64 ?? '', 'base64');
if (!body.length) {
  process.stderr.write('BENCH_BARE_BODY_BASE64 is required\n');
  process.exit(2);
}
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
