import { API_VARIANTS } from '../api-variant.js';
import { createClient } from '../client.js';
import { CREDENTIAL_EXPOSURES } from '../credential-exposure.js';
import type { CardrailToolkit, CardrailToolkitOptions } from '../toolkit.js';
import type { TokenPrincipal } from './claims.js';
import { createOAuthResourceServer, type OAuthResourceServer } from './resource-server.js';
import type { HttpAuthOptions } from './settings.js';
import { TokenToolkit } from './token-toolkit.js';

/** The organization's side of the toolkits: its API key and settings; each token names the agent (and card). */
export type OrganizationToolkitOptions = Omit<CardrailToolkitOptions, 'agentId' | 'cardId'>;

/**
 * Toolkits behind an OAuth resource server: what `serveHttp` serves when each request's access token names the agent
 * (and card) its tools act for, with the organization's one API key.
 */
export interface OAuthProtectedToolkits {
  /** Checks each request's access token (metadata, 401, 403 `insufficient_scope`). */
  readonly resourceServer: OAuthResourceServer;
  /** The toolkit acting for a verified token's agent (and card), made once and kept for the next requests. */
  toolkitFor(principal: Pick<TokenPrincipal, 'agentId' | 'cardId'>): CardrailToolkit;
}

/** Toolkits kept at most, the least recently used dropped first (each is a few kilobytes). */
const MAX_TOOLKITS = 1000;

function checkOrganization(options: OrganizationToolkitOptions): void {
  const fail = (message: string) => {
    throw new TypeError(`@cardrail/agent-toolkit: ${message}`);
  };
  if (options.variant !== undefined && !API_VARIANTS.includes(options.variant))
    fail(`variant must be ${API_VARIANTS.join(' or ')}, got ${String(options.variant)}.`);
  if (options.credentialExposure !== undefined && !CREDENTIAL_EXPOSURES.includes(options.credentialExposure))
    fail(`credentialExposure must be ${CREDENTIAL_EXPOSURES.join(' or ')}, got ${String(options.credentialExposure)}.`);
  if (
    options.client !== undefined &&
    (options.apiKey ?? options.baseUrl ?? options.variant ?? options.clientOptions) !== undefined
  )
    fail('pass either client or apiKey, baseUrl, variant and clientOptions: the client already has its own.');
}

/**
 * The organization's toolkits behind an OAuth resource server. One SDK client (the organization's key) serves every
 * token; a token names its agent (`cardrail_agent_id`) and optionally one card (`cardrail_card_id`).
 *
 * @example
 * ```ts
 * const served = protectWithOAuth(
 *   { issuer: 'https://auth.example.com/', audience: 'https://mcp.example.com/mcp' },
 *   { apiKey: process.env.CARDRAIL_API_KEY },
 * );
 * await serveHttp(served, { host: '0.0.0.0', port: 4020 });
 * ```
 */
export function protectWithOAuth(auth: HttpAuthOptions, organization: OrganizationToolkitOptions): OAuthProtectedToolkits {
  checkOrganization(organization);
  const resourceServer = createOAuthResourceServer(auth);
  const client =
    organization.client ??
    createClient(organization.variant ?? 'customer', {
      ...organization.clientOptions,
      apiKey: organization.apiKey,
      baseUrl: organization.baseUrl,
    });
  const toolkits = new Map<string, CardrailToolkit>();
  return {
    resourceServer,
    toolkitFor({ agentId, cardId }) {
      const key = `${agentId}\n${cardId ?? ''}`;
      let toolkit = toolkits.get(key);
      if (toolkit !== undefined) toolkits.delete(key);
      toolkit ??= new TokenToolkit({
        client,
        agentId,
        cardId,
        credentialExposure: organization.credentialExposure,
        onCredentials: organization.onCredentials,
      });
      toolkits.set(key, toolkit);
      if (toolkits.size > MAX_TOOLKITS) toolkits.delete(toolkits.keys().next().value as string);
      return toolkit;
    },
  };
}
