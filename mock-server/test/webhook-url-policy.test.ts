// Where webhooks may go (docs/webhooks.md#where-deliveries-may-go): link-local and unspecified addresses and URLs
// with credentials are refused with 400 naming the reason; loopback, private addresses and names are accepted, the
// scheme in any case; a host named in allowWebhookHosts is open.
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call } from './support/state-tour.js';
import { WebhookUrlPolicy } from '../src/webhooks/url-policy.js';

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

  // 6to4 (2002::/16) carries an IPv4 address in bits 16 to 48; Teredo (2001::/32) its client's in the last 32 bits,
  // inverted, and its server's in bits 32 to 64 (here 65.54.227.120, flags 8000, port f227). Each is judged by the
  // IPv4 addresses it carries, as the IPv4 address itself would be.
  describe('6to4 and Teredo addresses', () => {
    it.each([
      ['6to4 of 169.254.169.254', 'http://[2002:a9fe:a9fe::]/', 'cloud metadata address (AWS, Google Cloud'],
      ['6to4 of 169.254.169.254, a host in its /48', 'http://[2002:a9fe:a9fe:1:2:3:4:5]/latest', 'cloud metadata address (AWS'],
      ['6to4 of 169.254.170.2', 'http://[2002:a9fe:aa02::1]/', 'cloud metadata address (AWS ECS'],
      ['6to4 of 100.100.100.200', 'http://[2002:6464:64c8::]/', 'cloud metadata address (Alibaba Cloud'],
      ['6to4 of 168.63.129.16', 'http://[2002:a83f:8110::]/', 'cloud metadata address (the Azure WireServer)'],
      ['6to4 of 169.254.1.1', 'http://[2002:a9fe:101::]/', 'link-local address (169.254.0.0/16)'],
      ['6to4 of 0.0.0.7', 'http://[2002:0:7::]/', 'unspecified address (0.0.0.0/8)'],
      ['Teredo, client 169.254.169.254', 'http://[2001:0:4136:e378:8000:f227:5601:5601]/', 'cloud metadata address (AWS, Google'],
      ['Teredo, client 100.100.100.200', 'http://[2001:0:4136:e378:8000:f227:9b9b:9b37]/', 'cloud metadata address (Alibaba'],
      ['Teredo, client 169.254.1.1', 'http://[2001:0:4136:e378:8000:f227:5601:fefe]/', 'link-local address (169.254.0.0/16)'],
      ['Teredo, client 0.0.0.0', 'http://[2001:0:4136:e378:8000:f227:ffff:ffff]/', 'unspecified address (0.0.0.0/8)'],
      ['Teredo, server 169.254.169.254', 'http://[2001:0:a9fe:a9fe:8000:f227:34ff:8efa]/', 'cloud metadata address (AWS'],
      ['Teredo, server 169.254.7.7', 'http://[2001:0:a9fe:707:8000:f227:34ff:8efa]/', 'link-local address (169.254.0.0/16)'],
    ])('refuses %s (%s) naming the reason', async (_name, url, reason) => {
      const answer = await create(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message).toContain(reason);
    });

    it.each([
      ['6to4 of 127.0.0.1, loopback', 'http://[2002:7f00:1::]:3000/hooks'],
      ['6to4 of 10.0.0.5, private', 'http://[2002:a00:5::]/hooks'],
      ['6to4 of 192.168.1.20, private', 'http://[2002:c0a8:114::]/hooks'],
      ['6to4 of 203.0.113.5, public', 'http://[2002:cb00:7105::1]/hooks'],
      ['Teredo, client 127.0.0.1, loopback', 'http://[2001:0:4136:e378:8000:f227:80ff:fffe]/hooks'],
      ['Teredo, client 10.0.0.5, private', 'http://[2001:0:4136:e378:8000:f227:f5ff:fffa]/hooks'],
      ['Teredo, client 203.0.113.5, public', 'http://[2001:0:4136:e378:8000:f227:34ff:8efa]/hooks'],
      ['outside Teredo: 2001:db8::/32', 'http://[2001:db8:a9fe:a9fe::]/hooks'],
    ])('accepts %s (%s), as that IPv4 address is accepted', async (_name, url) => {
      expect((await create(url)).status, url).toBe(201);
    });

    it('refuses the same addresses where a name resolves to them, and opens one only when it is named itself', () => {
      const policy = new WebhookUrlPolicy(['opened.test']);
      for (const address of [
        '2002:a9fe:a9fe::',
        '2001:0:4136:e378:8000:f227:5601:5601',
        '2001:0:a9fe:a9fe:8000:f227:34ff:8efa',
      ]) {
        expect(policy.allowsAddress('opened.test', address), address).toBe(false);
        expect(policy.allowsAddress('other.test', address), address).toBe(false);
      }
      expect(policy.allowsAddress('other.test', '2002:a9fe:101::')).toBe(false);
      expect(policy.allowsAddress('opened.test', '2002:a9fe:101::')).toBe(true);
      expect(policy.allowsAddress('other.test', '2002:7f00:1::')).toBe(true);
      expect(new WebhookUrlPolicy(['2002:a9fe:a9fe::']).problem('http://[2002:a9fe:a9fe::]/')).toBeUndefined();
      expect(new WebhookUrlPolicy(['169.254.169.254']).problem('http://[2002:a9fe:a9fe::]/')).toContain('cloud metadata');
    });
  });
});
