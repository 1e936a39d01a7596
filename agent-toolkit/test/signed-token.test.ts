// What the MCP server signs for a client to hold (signed-token.ts): task ids and the approval card's decision
// capabilities. A token is refused as another kind, once tampered with, under another binding or another secret; the
// wire format is the one servers minted before, so task ids clients hold stay valid across an upgrade.
import { createHmac } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { DecisionCapabilities } from '../src/mcp/apps/decision-capability.js';
import { RequestStates } from '../src/mcp/request-states.js';
import { SignedTokens, type TokenKind } from '../src/mcp/signed-token.js';
import { TaskIds } from '../src/mcp/tasks/task-id.js';

const secret = new TextEncoder().encode('a-state-secret-for-this-test-only-32b');
const binding = 'subject\0agt_1\0card_1';
const WORD = /^[a-z0-9_]+$/;
const kind = (label: string): TokenKind<[string, string]> => ({ prefix: 'tk1', label, forms: [WORD, WORD] });
const ONE = kind('test/one/v1');
const OTHER = kind('test/other/v1');

/** `token` with the character at `at` replaced by another base64url character. */
const tamper = (token: string, at: number) => `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;

describe('SignedTokens', () => {
  const tokens = new SignedTokens(secret, binding);

  it('gives back the fields of a token it signed', async () => {
    const token = await tokens.sign(ONE, ['int_1', 'declare_intent']);
    expect(token).toMatch(/^tk1\.int_1\.declare_intent\.[A-Za-z0-9_-]{43}$/);
    expect(await tokens.verify(ONE, token)).toEqual(['int_1', 'declare_intent']);
  });

  it('refuses a token signed under one label when verified under another, alike as they look', async () => {
    const token = await tokens.sign(ONE, ['int_1', 'declare_intent']);
    expect(await tokens.verify(OTHER, token)).toBe('forged');
    expect(await tokens.verify(OTHER, await tokens.sign(OTHER, ['int_1', 'declare_intent']))).toEqual([
      'int_1',
      'declare_intent',
    ]);
  });

  it('refuses a tampered token, and one of another binding or another secret', async () => {
    const token = await tokens.sign(ONE, ['int_1', 'declare_intent']);
    const mac = token.lastIndexOf('.') + 1;
    expect(await tokens.verify(ONE, tamper(token, mac + 10))).toBe('forged');
    expect(await tokens.verify(ONE, token.replace('int_1', 'int_2'))).toBe('forged');
    expect(await tokens.verify(ONE, token.replace('declare_intent', 'declare_intents'))).toBe('forged');
    expect(await new SignedTokens(secret, 'subject\0agt_2\0card_1').verify(ONE, token)).toBe('forged');
    const otherSecret = new TextEncoder().encode('another-state-secret-of-32-bytes-or-more');
    expect(await new SignedTokens(otherSecret, binding).verify(ONE, token)).toBe('forged');
  });

  it.each([
    ['not a string', 42],
    ['another prefix', 'tk2.int_1.declare_intent.AAAA'],
    ['a field too many', 'tk1.int_1.declare_intent.x.AAAA'],
    ['a field out of its form', 'tk1.INT_1.declare_intent.AAAA'],
    ['an empty field', 'tk1..declare_intent.AAAA'],
    ['no MAC', 'tk1.int_1.declare_intent'],
    ['a MAC that is not base64url', 'tk1.int_1.declare_intent.A+/='],
    ['a MAC of the wrong length', 'tk1.int_1.declare_intent.AAAA'],
    ['over 512 characters', `tk1.int_1.${'a'.repeat(500)}.${'A'.repeat(43)}`],
  ])('refuses %s as malformed, before any MAC', async (_, token) => {
    expect(await tokens.verify(ONE, token)).toBe('malformed');
  });

  it('refuses a MAC written in a form other than its canonical base64url', async () => {
    const token = await tokens.sign(ONE, ['int_1', 'declare_intent']);
    // The last of 43 characters carries 4 bits and 2 spare ones: setting a spare bit decodes to the same MAC.
    const last = token.at(-1) ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spareSet = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) | 1]}`;
    expect(spareSet).not.toBe(token);
    expect(await tokens.verify(ONE, spareSet)).toBe('malformed');
  });

  it('signs no field out of its form', async () => {
    await expect(tokens.sign(ONE, ['int.1', 'declare_intent'])).rejects.toThrow(TypeError);
    await expect(tokens.sign(ONE, ['int_1', 'Declare'])).rejects.toThrow(TypeError);
  });
});

describe('the kinds the server signs', () => {
  const tasks = new TaskIds(secret, binding);
  const capabilities = new DecisionCapabilities(secret, binding);
  const hmac = (...parts: string[]) => createHmac('sha256', secret).update(parts.join('\0')).digest('base64url');

  it('mints task ids and capabilities in the wire format servers minted before, so theirs stay valid', async () => {
    const taskId = `ct1.int_1.declare_intent.${hmac('cardrail-mcp/task-id/v1', binding, 'int_1', 'declare_intent')}`;
    expect(await tasks.mint({ intentId: 'int_1', tool: 'declare_intent' })).toBe(taskId);
    expect(await tasks.verify(taskId)).toEqual({ intentId: 'int_1', tool: 'declare_intent' });
    const expiry = (4_102_444_800_000).toString(36);
    const label = 'cardrail-mcp/approval-card/decision-capability/v1';
    const capability = `dc1.int_1.${expiry}.${hmac(label, binding, 'int_1', expiry)}`;
    expect(await capabilities.mint({ intentId: 'int_1', expiresAt: 4_102_444_800_000 })).toBe(capability);
    expect(await capabilities.check(capability, 'int_1', 0)).toBeUndefined();
  });

  it('refuses a task id as a capability, a capability as a task id, and either under the other prefix', async () => {
    const taskId = await tasks.mint({ intentId: 'int_1', tool: 'abc123' });
    const capability = await capabilities.mint({ intentId: 'int_1', expiresAt: 4_102_444_800_000 });
    expect(await capabilities.check(taskId, 'int_1', 0)).toBe('malformed');
    expect(await tasks.verify(capability)).toBeUndefined();
    // Renamed to the other kind's prefix, each fits the other's forms: only the label tells them apart.
    expect(await capabilities.check(taskId.replace(/^ct1/, 'dc1'), 'int_1', 0)).toBe('forged');
    expect(await tasks.verify(capability.replace(/^dc1/, 'ct1'))).toBeUndefined();
  });

  it('refuses a requestState as a task id or a capability, and a task id as a requestState', async () => {
    const states = new RequestStates(secret, binding);
    // The codec binds through the server's binding, not the context; a context is only required to be there.
    const ctx = {} as ServerContext;
    const state = await states.seal(ctx, 'declare_intent', {}, { intentId: 'int_1', path: 'url' });
    expect((await states.verify(state, ctx)).intentId).toBe('int_1');
    expect(await tasks.verify(state)).toBeUndefined();
    expect(await capabilities.check(state, 'int_1', 0)).toBe('malformed');
    await expect(states.verify(await tasks.mint({ intentId: 'int_1', tool: 'declare_intent' }), ctx)).rejects.toThrow();
  });
});
