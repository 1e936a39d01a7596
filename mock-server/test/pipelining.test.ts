// HTTP/1.1 pipelining on the Node server (docs/standalone-server.md#limits): requests sent back to back on one
// connection take effect in the order they were sent, even on a cold server, where the first request of each
// operation waits for its checks to load; answers come back in that order too.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../src/adapters/node.js';
import { FROZEN_AT, newKey } from './support/keys.js';

interface RawAnswer {
  status: number;
  body: string;
}

/** Sends `raw` on one connection at once and resolves with the first `count` answers, parsed in order. */
function pipeline(port: number, raw: string, count: number): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    const answers: RawAnswer[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        answers.push({
          status: Number(head.split(' ')[1]),
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        buffer = buffer.subarray(end + 4 + length);
        if (answers.length === count) {
          socket.destroy();
          resolve(answers);
          return;
        }
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the connection closed after ${answers.length} of ${count} answers`)));
    socket.write(raw);
  });
}

function request(method: string, path: string, key: string, body?: unknown): string {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers = [`${method} /v1${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`];
  if (body !== undefined) headers.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`);
  return `${headers.join('\r\n')}\r\n\r\n${text}`;
}

describe('pipelined requests', () => {
  it('take effect in the order they were sent on a cold server, and are answered in that order', async () => {
    const server = await startMockServer({ port: 0, frozenClock: FROZEN_AT, dashboard: false });
    try {
      const key = newKey();
      // Each operation is used here for the first time on this server: its first request waits for its checks.
      const plan: { raw: string; created: boolean }[] = [];
      for (let round = 0; round < 10; round++) {
        plan.push({ raw: request('POST', '/customers', key, { email: `c${round}@example.com` }), created: true });
        plan.push({ raw: request('GET', '/customers?limit=100', key), created: false });
        if (round % 3 === 0) plan.push({ raw: request('GET', '/events?limit=100', key), created: false });
      }
      const answers = await pipeline(server.port, plan.map((step) => step.raw).join(''), plan.length);
      let created = 0;
      for (const [index, step] of plan.entries()) {
        const answer = answers[index] as RawAnswer;
        if (step.created) {
          expect(answer.status).toBe(201);
          created++;
          expect((JSON.parse(answer.body) as { email: string }).email).toBe(`c${created - 1}@example.com`);
        } else if (step.raw.startsWith('GET /v1/customers')) {
          // Every customer created by the POSTs before it, newest first; none of those after it.
          const emails = (JSON.parse(answer.body) as { data: { email: string }[] }).data.map((customer) => customer.email);
          expect(emails).toEqual(Array.from({ length: created }, (_, i) => `c${created - 1 - i}@example.com`));
        } else {
          const events = (JSON.parse(answer.body) as { data: { type: string }[] }).data;
          expect(events.filter((event) => event.type === 'user.created')).toHaveLength(created);
        }
      }
    } finally {
      await server.close();
    }
  });
});
