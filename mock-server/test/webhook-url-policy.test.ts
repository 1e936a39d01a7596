// Where webhooks may go (docs/webhooks.md#where-deliveries-may-go): link-local and unspecified addresses and URLs
// with credentials are refused with 400 naming the reason; loopback, private addresses and names are accepted, the
// scheme in any case; a host named in allowWebhookHosts is open.
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call } from './support/state-tour.js';

describe('the webhook URL policy', () => {
  const mock = createMockServer({ frozenClock: FROZEN_AT });
  const key = newKey();
  const create = async (url: string) => {
    const answer = await call(mock, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key });
    return { status: answer.status, body: JSON.parse(answer.body) as any };
  };

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local address (169.254.0.0/16)'],
    ['http://2852039166/latest', 'link-local address (169.254.0.0/16)'],
    ['http://[fe80::1]:8080/hooks', 'link-local address (fe80::/10)'],
    ['http://[::ffff:169.254.169.254]/', 'link-local address (169.254.0.0/16)'],
    ['http://0.0.0.0:3000/hooks', 'unspecified address (0.0.0.0/8)'],
    ['http://[::]:3000/hooks', 'unspecified address (::)'],
    ['https://user:secret@hooks.example.com/cardrail', 'must not contain credentials'],
  ])('refuses %s with 400 naming the reason', async (url, reason) => {
    const answer = await create(url);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.details.field).toBe('/body/url');
    expect(answer.body.error.message).toContain(reason);
  });

  it.each([
    'http://127.0.0.1:9/hooks',
    'http://localhost:3000/hooks',
    'http://10.0.0.5/hooks',
    'http://192.168.1.20:8080/hooks',
    'http://[::1]:3000/hooks',
    'HTTPS://Hooks.Example.COM/Cardrail',
    'Http://hooks.example.com/x',
  ])('accepts %s (loopback, private, names, any case of scheme)', async (url) => {
    expect((await create(url)).status).toBe(201);
  });

  it('refuses the same URLs in an update, and opens a host named in allowWebhookHosts', async () => {
    const created = await create('http://127.0.0.1:9/hooks');
    const patched = await call(mock, {
      method: 'PATCH',
      path: `/webhooks/${created.body.id}`,
      body: { url: 'http://169.254.169.254/' },
      key,
    });
    expect(patched.status).toBe(400);
    const opened = createMockServer({ frozenClock: FROZEN_AT, allowWebhookHosts: ['169.254.169.254', 'fe80::1'] });
    for (const url of ['http://169.254.169.254/hooks', 'http://[fe80::1]/hooks']) {
      const answer = await call(opened, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key });
      expect(answer.status, url).toBe(201);
    }
  });
});
