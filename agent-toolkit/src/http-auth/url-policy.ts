/**
 * Which URLs the OAuth settings may name. Tokens, metadata and keys travel over TLS, except on a loopback host, where
 * a test or a local authorization server runs without it.
 */

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/** Whether a URL's hostname is this machine: `localhost`, `127.0.0.0/8` or `[::1]`. */
function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127(\.[0-9]{1,3}){3}$/.test(hostname);
}

/** The URL when it is absolute, https (or http on a loopback host) and without a fragment; else why not. */
export function secureUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an absolute URL, got ${JSON.stringify(value)}`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHostname(url.hostname))) {
    return `must be an https URL (http only on a loopback host), got ${JSON.stringify(value)}`;
  }
  if (url.hash !== '' || value.includes('#')) return `must not have a fragment, got ${JSON.stringify(value)}`;
  if (url.username !== '' || url.password !== '') return `must not carry a user name or password, got ${JSON.stringify(value)}`;
  return url;
}

/** The path with no trailing slash (`/` stays `/`). */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
