import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../src/core/directory.js';
import { createMockServer } from '../src/index.js';
import { FROZEN_AT, newKey } from './support/keys.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('API key storage', () => {
  it('keeps only a SHA-256 digest and the redacted form of each key, and finds keys by digest', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const key = newKey();
    const call = async (method: string, path: string, apiKey: string) => {
      const response = await mock.handle(
        new Request(`http://127.0.0.1:4010/v1${path}`, { method, headers: { Authorization: `Bearer ${apiKey}` } }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const created = await call('POST', '/api-keys', key);
    expect(created.status).toBe(201);
    const second: string = created.body.key;
    expect(second).toMatch(/^sk_test_/);

    const tenant = mock.tenantOf(key);
    if (!tenant) throw new Error('no tenant');
    const records = [...apiKeys.of(tenant).values()];
    const stored = JSON.stringify(records);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(second);
    expect(records.map((record) => record.digest).sort()).toEqual([sha256(key), sha256(second)].sort());
    expect(records.map((record) => record.redactedKey).sort()).toEqual(
      [`sk_test_...${key.slice(-4)}`, `sk_test_...${second.slice(-4)}`].sort(),
    );

    // The issued key reaches the same organization; a key that differs in its last character is another one.
    expect(mock.tenantOf(second)).toBe(tenant);
    const lookalike = second.slice(0, -1) + (second.endsWith('a') ? 'b' : 'a');
    expect(mock.tenantOf(lookalike)).not.toBe(tenant);
    const listed = await call('GET', '/api-keys', second);
    expect(listed.body.data.map((k: { redactedKey: string }) => k.redactedKey)).toContain(`sk_test_...${second.slice(-4)}`);
    expect(JSON.stringify(listed.body)).not.toContain(second);

    expect((await call('DELETE', `/api-keys/${created.body.id}`, key)).status).toBe(200);
    expect((await call('GET', '/api-keys', second)).status).toBe(401);
  });
});
