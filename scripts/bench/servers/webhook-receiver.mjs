// A webhook receiver in a child process: `node webhook-receiver.mjs <port> ok|hang`. `ok` answers every delivery
// 204 at once; `hang` reads it and never answers. Every 200 ms it prints `stats <open> <peak> <connections>
// <requests>` (connections open now, the most open at once, all connections made, deliveries received).
import http from 'node:http';

const port = Number(process.argv[2]);
const mode = process.argv[3] ?? 'ok';
const sockets = new Set();
let peak = 0;
let connections = 0;
let requests = 0;
const server = http.createServer((request, response) => {
  requests++;
  request.resume();
  if (mode === 'ok') request.on('end', () => response.writeHead(204).end());
});
server.keepAliveTimeout = 30_000;
server.on('connection', (socket) => {
  connections++;
  sockets.add(socket);
  peak = Math.max(peak, sockets.size);
  // Gone as soon as the mock ends it ('close' itself comes a turn later, possibly after the next connection).
  const gone = () => sockets.delete(socket);
  socket.on('end', gone);
  socket.on('error', gone);
  socket.on('close', gone);
});
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
setInterval(() => process.stdout.write(`stats ${sockets.size} ${peak} ${connections} ${requests}\n`), 200);
