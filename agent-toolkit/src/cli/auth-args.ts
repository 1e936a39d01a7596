import { type HttpAuthOptions, HttpAuthOptionError, resolveHttpAuthSettings } from '../http-auth/settings.js';
import { UsageError } from './usage-error.js';

/** The OAuth flags of `cardrail-mcp` (HTTP only). */
export const AUTH_OPTIONS = {
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-jwks-url': { type: 'string' },
  'auth-algorithms': { type: 'string' },
  'auth-read-scope': { type: 'string' },
  'auth-spend-scope': { type: 'string' },
  'auth-agent-claim': { type: 'string' },
  'auth-card-claim': { type: 'string' },
} as const;

export const AUTH_USAGE = `OAuth (HTTP only; each access token names the agent, the key stays the organization's):
  --auth-issuer <url>          accept access tokens (JWT) of this authorization server, exactly as their iss
                               claim says it; turns OAuth on
  --auth-audience <url>        this endpoint's URL as clients reach it, e.g. https://mcp.example.com/mcp: each
                               token's aud must name it (required with --auth-issuer)
  --auth-jwks-url <url>        the issuer's keys (default: jwks_uri of its metadata, on the issuer's origin)
  --auth-algorithms <list>     accepted signature algorithms, comma-separated (default: RS*, PS*, ES*, EdDSA)
  --auth-read-scope <scope>    the scope of every request: connect, read-only tools, following tasks
                               (default cardrail:read)
  --auth-spend-scope <scope>   the scope added for tools that change something and for cancelling a task
                               (default cardrail:spend)
  --auth-agent-claim <name>    the claim naming the agent (default cardrail_agent_id)
  --auth-card-claim <name>     the claim binding one card (default cardrail_card_id)`;

type AuthValues = { [Flag in keyof typeof AUTH_OPTIONS]?: string | undefined };

/** The flag each option comes from, for messages. */
const FLAGS: Record<string, string> = {
  issuer: '--auth-issuer',
  audience: '--auth-audience',
  jwksUrl: '--auth-jwks-url',
  algorithms: '--auth-algorithms',
  scopes: '--auth-read-scope and --auth-spend-scope',
  'scopes.read': '--auth-read-scope',
  'scopes.spend': '--auth-spend-scope',
  'claims.agentId': '--auth-agent-claim',
  'claims.cardId': '--auth-card-claim',
};

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;

/** The OAuth settings of the command line, or undefined without `--auth-issuer`; checked as the server will check them. */
export function authFromFlags(values: AuthValues, transport: 'stdio' | 'http'): HttpAuthOptions | undefined {
  const given = (Object.keys(AUTH_OPTIONS) as (keyof AuthValues)[]).filter((flag) => values[flag] !== undefined);
  if (given.length === 0) return undefined;
  if (transport !== 'http') throw new UsageError(`--${given[0]} applies to --transport http only.`);
  const { 'auth-issuer': issuer, 'auth-audience': audience } = values;
  if (issuer === undefined) throw new UsageError(`--${given[0]} needs --auth-issuer <url>: it turns OAuth on.`);
  if (audience === undefined)
    throw new UsageError("--auth-issuer needs --auth-audience <url>: this endpoint's URL, which tokens must be for.");
  const options: HttpAuthOptions = {
    issuer,
    audience,
    jwksUrl: values['auth-jwks-url'],
    algorithms: values['auth-algorithms']?.split(',').map((name) => name.trim()),
    scopes: defined({ read: values['auth-read-scope'], spend: values['auth-spend-scope'] }),
    claims: defined({ agentId: values['auth-agent-claim'], cardId: values['auth-card-claim'] }),
  };
  try {
    resolveHttpAuthSettings(options);
  } catch (error) {
    if (error instanceof HttpAuthOptionError) throw new UsageError(`${FLAGS[error.option] ?? error.option} ${error.problem}.`);
    throw error;
  }
  return options;
}
