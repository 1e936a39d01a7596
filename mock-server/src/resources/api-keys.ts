import { toIso } from '../core/clock.js';
import { apiKeys, type ApiKeyRecord } from '../core/directory.js';
import type { ApiSchemas } from '../core/stored.js';
import { notFound } from '../core/errors.js';
import type { HandlerMap } from '../http/operation-handler.js';
import { listPage } from './pagination.js';

function renderApiKey(record: ApiKeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    mode: record.mode,
    redactedKey: record.redactedKey,
    status: record.revokedAt === null ? 'active' : 'revoked',
    createdAt: toIso(record.createdAt),
    revokedAt: record.revokedAt === null ? null : toIso(record.revokedAt),
  };
}

/**
 * Keys of the caller's organization and mode. A new key belongs to the same organization, in the caller's mode or
 * the `mode` asked for; listing and revoking see the caller's mode only (the other mode's keys are another tenant's).
 */
export const apiKeyHandlers: HandlerMap = {
  createApiKey: (ctx) => {
    const body = ctx.body as ApiSchemas['ApiKeyCreate'] | undefined;
    const { record, key } = ctx.services.directory.createKey(ctx.tenant, body?.name ?? null, body?.mode);
    return { body: { ...renderApiKey(record), key } };
  },
  listApiKeys: (ctx) => ({ body: listPage(apiKeys.of(ctx.tenant), ctx.query, renderApiKey) }),
  revokeApiKey: (ctx) => {
    const record = ctx.services.directory.revokeKey(ctx.tenant, ctx.params.keyId as string);
    if (!record) throw notFound();
    return { body: renderApiKey(record) };
  },
};
