import { ASYMMETRIC_ALGORITHMS, type AsymmetricAlgorithm, algorithmAllowList } from './algorithms.js';
import { type ClaimNames, DEFAULT_CLAIM_NAMES } from './claims.js';
import { DEFAULT_SCOPE_NAMES, isScopeToken, type ScopeNames } from './scopes.js';
import { secureUrl, withoutTrailingSlash } from './url-policy.js';

/**
 * How the MCP endpoint checks OAuth access tokens: which authorization server issues them, for which resource, and
 * how their claims and scopes are named.
 */
export interface HttpAuthOptions {
  /**
   * The authorization server's issuer identifier, exactly as its tokens' `iss` claim and its metadata's `issuer` state
   * it (a trailing slash counts), e.g. `https://auth.example.com/`. https, or http on a loopback host.
   */
  issuer: string;
  /**
   * The MCP endpoint's URL as clients reach it, e.g. `https://mcp.example.com/mcp`: the resource indicator (RFC 8707)
   * clients ask tokens for, which each token's `aud` must contain, and the `resource` of the metadata (RFC 9728).
   */
  audience: string;
  /**
   * The issuer's JSON Web Key Set. Default: the `jwks_uri` of the issuer's metadata (RFC 8414, then OpenID Connect
   * discovery), which must then be on the issuer's origin; name it here to trust one elsewhere.
   */
  jwksUrl?: string | undefined;
  /**
   * The signature algorithms accepted; default every asymmetric one: `RS256`-`RS512`, `PS256`-`PS512`, `ES256`-`ES512`,
   * `EdDSA`, `Ed25519`. Never `none` or HS*.
   */
  algorithms?: readonly string[] | undefined;
  /** The scope names the authorization server issues; default `cardrail:read` and `cardrail:spend`. */
  scopes?: Partial<ScopeNames> | undefined;
  /** The claims that name the agent and the card; default `cardrail_agent_id` and `cardrail_card_id`. */
  claims?: Partial<ClaimNames> | undefined;
  /** Clock skew tolerated on `exp` and `nbf`, in seconds; default 30. */
  clockToleranceSeconds?: number | undefined;
  /** The name clients may show for this resource (RFC 9728 `resource_name`); default `Cardrail`. */
  resourceName?: string | undefined;
  /** A page about this resource (RFC 9728 `resource_documentation`); default the toolkit's hosting guide. */
  resourceDocumentation?: string | undefined;
  /** The longest a metadata or key fetch may take, in milliseconds; default 5000. */
  fetchTimeoutMs?: number | undefined;
  /** Told about what makes tokens unverifiable (the issuer's metadata or keys out of reach), for the operator's log. */
  onProblem?: ((message: string) => void) | undefined;
}

/** The options, checked and with their defaults. */
export interface HttpAuthSettings {
  issuer: string;
  audience: string;
  jwksUrl: URL | undefined;
  algorithms: AsymmetricAlgorithm[];
  scopes: ScopeNames;
  claims: ClaimNames;
  clockToleranceSeconds: number;
  resourceName: string;
  resourceDocumentation: string;
  /** The metadata URL clients are pointed at: RFC 9728's form, the well-known segment before the audience's path. */
  metadataUrl: string;
  /** Request paths that serve the metadata: that form's, and the root `/.well-known/oauth-protected-resource`. */
  metadataPaths: string[];
  fetch: { timeoutMs: number; maxBytes: number };
  onProblem: (message: string) => void;
}

/** An option with a value it cannot take; `option` names it (`issuer`, `audience`...). */
export class HttpAuthOptionError extends TypeError {
  /** `'HttpAuthOptionError'`. */
  override readonly name = 'HttpAuthOptionError';
  /** The option, e.g. `issuer` or `scopes.read`. */
  readonly option: string;
  /** What is wrong with its value, e.g. `must be an https URL ...`. */
  readonly problem: string;

  constructor(option: string, problem: string) {
    super(`@cardrail/agent-toolkit: OAuth option ${option} ${problem}.`);
    this.option = option;
    this.problem = problem;
  }
}

const METADATA_ROOT = '/.well-known/oauth-protected-resource';
const DOCUMENTATION = 'https://github.com/cardrail/cardrail/blob/main/docs/agents.md#hosting-with-oauth';
/** Metadata documents and key sets larger than this are refused, whoever serves them. */
const MAX_FETCH_BYTES = 256 * 1024;

function url(option: string, value: unknown): URL {
  if (typeof value !== 'string') throw new HttpAuthOptionError(option, `must be a URL string, got ${typeof value}`);
  const checked = secureUrl(value);
  if (typeof checked === 'string') throw new HttpAuthOptionError(option, checked);
  return checked;
}

function names<T extends object>(option: string, given: Partial<T> | undefined, defaults: T, valid: (v: string) => boolean): T {
  const merged = { ...defaults, ...given } as Record<string, unknown>;
  for (const [key, value] of Object.entries(merged)) {
    if (typeof value !== 'string' || !valid(value))
      throw new HttpAuthOptionError(`${option}.${key}`, `must be a non-empty name without spaces, got ${JSON.stringify(value)}`);
  }
  return merged as T;
}

function positive(option: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || value > max)
    throw new HttpAuthOptionError(option, `must be a number from 0 to ${max}, got ${String(value)}`);
  return value;
}

/** Checks the options; throws `HttpAuthOptionError` naming the first one that is wrong. */
export function resolveHttpAuthSettings(options: HttpAuthOptions): HttpAuthSettings {
  const issuer = url('issuer', options.issuer);
  if (issuer.search !== '') throw new HttpAuthOptionError('issuer', 'must not have a query (RFC 8414 section 2)');
  const audience = url('audience', options.audience);
  const algorithms = algorithmAllowList(options.algorithms ?? ASYMMETRIC_ALGORITHMS);
  if (typeof algorithms === 'string') throw new HttpAuthOptionError('algorithms', algorithms);
  const scopes = names('scopes', options.scopes, DEFAULT_SCOPE_NAMES, isScopeToken);
  if (scopes.read === scopes.spend) throw new HttpAuthOptionError('scopes', 'must name two different scopes');
  const claims = names('claims', options.claims, DEFAULT_CLAIM_NAMES, (name) => /^[^\s]+$/.test(name));
  const audiencePath = withoutTrailingSlash(audience.pathname);
  const metadataPath = audiencePath === '/' ? METADATA_ROOT : `${METADATA_ROOT}${audiencePath}`;
  return {
    issuer: options.issuer,
    audience: options.audience,
    jwksUrl: options.jwksUrl === undefined ? undefined : url('jwksUrl', options.jwksUrl),
    algorithms,
    scopes,
    claims,
    clockToleranceSeconds: positive('clockToleranceSeconds', options.clockToleranceSeconds, 30, 300),
    resourceName: options.resourceName ?? 'Cardrail',
    resourceDocumentation:
      options.resourceDocumentation === undefined
        ? DOCUMENTATION
        : url('resourceDocumentation', options.resourceDocumentation).href,
    metadataUrl: `${audience.origin}${metadataPath}`,
    metadataPaths: [...new Set([metadataPath, METADATA_ROOT])],
    fetch: { timeoutMs: positive('fetchTimeoutMs', options.fetchTimeoutMs, 5000, 60_000), maxBytes: MAX_FETCH_BYTES },
    onProblem: options.onProblem ?? (() => undefined),
  };
}
