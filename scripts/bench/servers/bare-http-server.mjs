// The ceiling: a bare node:http server that answers each route with bytes captured from our mock (same status,
// same content-type, same body), so the comparison is like for like. Run as a child process:
//   node bare-http-server.mjs <port>   with the routes as JSON on stdin:
//   [{ "method": "GET", "path": "/v1/cards/*", "status": 200, "contentType": "application/json", "body": "..." }]
// A path segment `*` matches any one segment; the query string is ignored.
import http from 'node:http';

const port = Number(process.argv[2]);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const routes = JSON.parse(input).map((route) => ({
  method: route.method,
  segments: route.path.split('/'),
  status: route.status,
  headers: { 'content-type': route.contentType, 'content-length': Buffer.byteLength(route.body) },
  body: Buffer.from(route.body),
}));
const notFound = Buffer.from('{"error":"not_found"}');

function find(method, url) {
  const end = url.indexOf('?');
  const segments = (end === -1 ? url : url.slice(0, end)).split('/');
  return routes.find(
    (route) =>
      route.method === method &&
      route.segments.length === segments.length &&
      route.segments.every((segment, i) => segment === '*' || segment === segments[i]),
  );
}

const server = http.createServer((request, response) => {
  const route = find(request.method, request.url);
  const answer = () => {
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length });
      response.end(notFound);
      return;
    }
    response.writeHead(route.status, route.headers);
    response.end(route.body);
  };
  // A body is read to its end before answering, as any real server must; a GET answers at once.
  if (request.method === 'GET' || request.method === 'HEAD') {
    answer();
  } else {
    request.on('data', () => {});
    request.on('end', answer);
  }
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`bare node:http listening on http://127.0.0.1:${port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
