/**
 * The OAuth scopes a token needs for each tool, decided by the tool's hints (what the catalog says a tool does), not
 * by its name: a new tool gets the right scope from its hints alone.
 */

/** What the tool catalog states about a tool that decides its scope. Catalog objects with more hints fit as they are. */
export interface ToolHints {
  /** The tool changes nothing (MCP's `readOnlyHint`). */
  readonly readOnly: boolean;
}

/** The names of the two scopes, as the authorization server issues them. */
export interface ScopeNames {
  /** Connect, list the tools and call the read-only ones. Default `cardrail:read`. */
  read: string;
  /** Call the tools that change something: `declare_intent` (which may ask a person to approve), `get_card_credentials`, `freeze_card`. Default `cardrail:spend`. */
  spend: string;
}

export const DEFAULT_SCOPE_NAMES: Readonly<ScopeNames> = { read: 'cardrail:read', spend: 'cardrail:spend' };

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\u0021\u0023-\u005B\u005D-\u007E]+$/;

/** Whether a string is a valid OAuth scope token (no spaces, quotes or backslashes). */
export function isScopeToken(value: string): boolean {
  return SCOPE_TOKEN.test(value);
}

/** The scopes every request needs, before any tool is called: the read scope. */
export function connectScopes(names: Readonly<ScopeNames> = DEFAULT_SCOPE_NAMES): string[] {
  return [names.read];
}

/**
 * Every scope a call of a tool with these hints needs, in one list (MCP asks a server to name them all in one
 * challenge): the read scope for every tool, and the spend scope too for a tool that changes something.
 *
 * @example
 * ```ts
 * requiredScopes({ readOnly: true }); // ['cardrail:read']
 * requiredScopes({ readOnly: false }); // ['cardrail:read', 'cardrail:spend']
 * ```
 */
export function requiredScopes(hints: ToolHints, names: Readonly<ScopeNames> = DEFAULT_SCOPE_NAMES): string[] {
  return hints.readOnly ? [names.read] : [names.read, names.spend];
}

/** The scopes of `needed` missing from `granted`, in the order of `needed`. */
export function missingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  const have = new Set(granted);
  return needed.filter((scope) => !have.has(scope));
}

/** The union of several scope lists, each scope once, in the order first seen. */
export function unionOfScopes(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}
