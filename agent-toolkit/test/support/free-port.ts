import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Port free on 127.0.0.1 now (the server for the audience's URL must know its port before it starts). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
