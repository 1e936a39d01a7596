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
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata address (AWS, Google Cloud'],
    ['http://2852039166/latest', 'cloud metadata address (AWS, Google Cloud'],
    ['http://0xa9fea9fe/latest', 'cloud metadata address (AWS, Google Cloud'],
    ['http://[::ffff:169.254.169.254]/', 'cloud metadata address (AWS, Google Cloud'],
    ['http://[::169.254.169.254]/', 'cloud metadata address (AWS, Google Cloud'],
    ['http://[::ffff:0:169.254.169.254]/', 'cloud metadata address (AWS, Google Cloud'],
    ['http://[64:ff9b::169.254.169.254]/', 'cloud metadata address (AWS, Google Cloud'],
    ['http://[fd00:ec2::254]/latest', 'cloud metadata address (AWS instance metadata over IPv6)'],
    ['http://[fd00:ec2:0:0:0:0:0:254]/', 'cloud metadata address (AWS instance metadata over IPv6)'],
    ['http://100.100.100.200/latest/meta-data/', 'cloud metadata address (Alibaba Cloud'],
    ['http://[::ffff:100.100.100.200]/', 'cloud metadata address (Alibaba Cloud'],
    ['http://169.254.170.2/v2/credentials', 'cloud metadata address (AWS ECS'],
    ['http://169.254.1.1/', 'link-local address (169.254.0.0/16)'],
    ['http://[::169.254.1.1]/', 'link-local address (169.254.0.0/16)'],
    ['http://[::0.0.0.7]/', 'unspecified address (0.0.0.0/8)'],
    ['http://[fe80::1]:8080/hooks', 'link-local address (fe80::/10)'],
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
    'http://[::127.0.0.1]:3000/hooks',
    'http://[::ffff:10.0.0.5]/hooks',
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
    const opened = createMockServer({
      frozenClock: FROZEN_AT,
      allowWebhookHosts: ['169.254.169.254', 'fe80::1', 'FD00:EC2::254'],
    });
    for (const url of ['http://169.254.169.254/hooks', 'http://[fe80::1]/hooks', 'http://[fd00:ec2::254]/hooks']) {
      const answer = await call(opened, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key });
      expect(answer.status, url).toBe(201);
    }
  });

  it('opens a cloud metadata address only when that address is named, in that form', async () => {
    const opened = createMockServer({
      frozenClock: FROZEN_AT,
      allowWebhookHosts: ['169.254.169.254', '100.100.100.201', 'metadata.google.internal'],
    });
    const create = async (url: string) =>
      (await call(opened, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key })).status;
    // Named in another form, or a neighbour named: still refused.
    expect(await create('http://[::ffff:169.254.169.254]/')).toBe(400);
    expect(await create('http://100.100.100.200/')).toBe(400);
    expect(await create('http://[fd00:ec2::254]/')).toBe(400);
    // A name is accepted as written; where it resolves to a metadata address, the connection is refused.
    expect(await create('http://metadata.google.internal/')).toBe(201);
  });
});
