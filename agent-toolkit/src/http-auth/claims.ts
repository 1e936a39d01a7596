import { invalidToken } from './access-token-error.js';

/** The claims of an access token that name what it may act for. */
export interface ClaimNames {
  /** The agent the token acts for (required). Default `cardrail_agent_id`. */
  agentId: string;
  /** The one card of that agent the token is bound to (optional). Default `cardrail_card_id`. */
  cardId: string;
}

export const DEFAULT_CLAIM_NAMES: Readonly<ClaimNames> = { agentId: 'cardrail_agent_id', cardId: 'cardrail_card_id' };

/** Who a verified access token speaks for, and what it may do. */
export interface TokenPrincipal {
  /** The agent every tool acts for, from the agent claim. */
  agentId: string;
  /** The one card the tools are bound to, from the card claim; undefined: every card of the agent. */
  cardId: string | undefined;
  /** The scopes granted (`scope`, RFC 9068 section 2.2.3; or `scp`, as some authorization servers name it). */
  scopes: string[];
  /** The person or client the token was issued to (`sub`), when it says. */
  subject: string | undefined;
  /** The OAuth client that asked for it (`client_id`, RFC 9068; else `azp`), when it says. */
  clientId: string | undefined;
  /** When it expires, in seconds since the epoch (`exp`). */
  expiresAt: number;
  /** The access token itself. */
  token: string;
}

// Cardrail ids (agt_..., card_...): letters, digits, _ and -. Anything else is refused before it reaches a URL.
const ID = /^[A-Za-z0-9_-]{1,255}$/;

function id(payload: Record<string, unknown>, claim: string, required: boolean): string | undefined {
  const value = payload[claim];
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw invalidToken(`The access token has no ${claim} claim: it must name the agent it acts for.`);
  if (typeof value !== 'string' || !ID.test(value))
    throw invalidToken(`The access token's ${claim} claim must be a Cardrail id (letters, digits, _ and -).`);
  return value;
}

function scopeList(payload: Record<string, unknown>): string[] {
  const value = payload.scope ?? payload.scp;
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(value) && value.every((scope) => typeof scope === 'string')) return value;
  throw invalidToken("The access token's scope claim must be a space-separated string (or an array of strings).");
}

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The principal of a verified token's claims; throws `invalid` when a claim it needs is missing or malformed. */
export function principalFromClaims(payload: Record<string, unknown>, token: string, claims: ClaimNames): TokenPrincipal {
  if (typeof payload.exp !== 'number') throw invalidToken('The access token has no exp claim.');
  return {
    agentId: id(payload, claims.agentId, true) as string,
    cardId: id(payload, claims.cardId, false),
    scopes: scopeList(payload),
    subject: optionalString(payload.sub),
    clientId: optionalString(payload.client_id) ?? optionalString(payload.azp),
    expiresAt: payload.exp,
    token,
  };
}
