import { notFound } from '../core/errors.js';
import { apiKeys } from '../core/directory.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';

/**
 * Keys of the caller's organization and mode. A new key belongs to the same organization, in the caller's mode or
 * the `mode` asked for; listing and revoking see the caller's mode only (the other mode's keys are another tenant's).
 */
export const apiKeyHandlers = {
  createApiKey: (ctx) => ctx.services.directory.createKey(ctx.tenant, ctx.body?.name ?? null, ctx.body?.mode),
  listApiKeys: (ctx) => listPage(apiKeys.of(ctx.tenant), ctx.query),
  revokeApiKey: (ctx) => {
    const record = ctx.services.directory.revokeKey(ctx.tenant, ctx.params.keyId);
    if (!record) throw notFound();
    return record;
  },
} satisfies Partial<NeutralHandlers>;
