// Serves a Next.js App Router route handler (its POST, a function from Request to Response) over HTTP with
// @hono/node-server, as `next start` would: the route module is ROUTE (default ../next-route.ts).
import { serve } from '@hono/node-server';

const route = (await import(process.env.ROUTE ?? '../next-route.ts')) as { POST(request: Request): Promise<Response> };

serve(
  {
    fetch: (request) =>
      request.method === 'POST' && new URL(request.url).pathname === '/webhooks/cardrail'
        ? route.POST(request)
        : new Response('Not found', { status: 404 }),
    port: Number(process.env.PORT ?? 3000),
    hostname: '127.0.0.1',
  },
  ({ port }) => console.log(`Listening on http://127.0.0.1:${port}/webhooks/cardrail`),
);
