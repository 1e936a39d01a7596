import { type FetchBounds, fetchJsonObject } from './bounded-fetch.js';
import { secureUrl, withoutTrailingSlash } from './url-policy.js';

/**
 * Where an issuer's metadata may be, in the order MCP clients try them: RFC 8414's
 * `/.well-known/oauth-authorization-server` (inserted before the issuer's path), then OpenID Connect discovery (RFC
 * 8414 section 5's inserted form for an issuer with a path, then OpenID Connect's appended form).
 */
export function issuerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = withoutTrailingSlash(url.pathname);
  const suffix = path === '/' ? '' : path;
  return [
    ...new Set([
      `${url.origin}/.well-known/oauth-authorization-server${suffix}`,
      ...(suffix === '' ? [] : [`${url.origin}/.well-known/openid-configuration${suffix}`]),
      `${url.origin}${suffix}/.well-known/openid-configuration`,
    ]),
  ];
}

/**
 * The issuer's `jwks_uri`, from the first metadata document found whose `issuer` is exactly this issuer (RFC 8414
 * section 3.3). The key set must be on the issuer's own origin: metadata is never a way to send the server to fetch
 * a URL of someone else's choosing. Throws an Error saying what is wrong.
 */
export async function discoverJwksUrl(issuer: string, bounds: FetchBounds): Promise<URL> {
  const urls = issuerMetadataUrls(issuer);
  const others: string[] = [];
  for (const url of urls) {
    const metadata = await fetchJsonObject(url, bounds);
    if (metadata === undefined) continue;
    if (metadata.issuer !== issuer) {
      others.push(`${url} is for issuer ${JSON.stringify(metadata.issuer)}`);
      continue;
    }
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`The issuer's metadata at ${url} has no jwks_uri.`);
    const jwks = secureUrl(metadata.jwks_uri);
    if (typeof jwks === 'string') throw new Error(`The jwks_uri of the issuer's metadata at ${url} ${jwks}.`);
    if (jwks.origin !== new URL(issuer).origin) {
      throw new Error(
        `The issuer's jwks_uri ${jwks.href} is not on the issuer's origin ${new URL(issuer).origin}; ` +
          'name it explicitly (jwksUrl, --auth-jwks-url) to trust it.',
      );
    }
    return jwks;
  }
  if (others.length > 0) throw new Error(`No metadata found for issuer ${issuer}: ${others.join('; ')}.`);
  throw new Error(`No metadata found for issuer ${issuer} (tried ${urls.join(', ')}).`);
}
