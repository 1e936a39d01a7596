/**
 * Which browser pages may call the MCP endpoint. MCP's HTTP transport asks servers to validate `Origin` on every
 * request and to answer 403 when it is present and not allowed (DNS rebinding, a web page driving a local server).
 * Clients that are not browsers send no `Origin` and are not concerned.
 */
export interface OriginPolicy {
  /**
   * Pages that may call, beside the server's own origin: an origin (`https://app.example`, `http://localhost:6274`:
   * that scheme, host and port) or a bare host name (`localhost`: any scheme and port). An IPv6 host in brackets.
   */
  allowedOrigins?: readonly string[] | undefined;
}

/** The policy as origins and host names, checked once. */
export function originRules(allowed: readonly string[] = []): { origins: Set<string>; hostnames: Set<string> } {
  const origins = new Set<string>();
  const hostnames = new Set<string>();
  for (const entry of allowed) {
    if (entry.includes('://')) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new TypeError(`allowedOrigins: ${JSON.stringify(entry)} is not an origin (scheme://host[:port]) or a host name.`);
      }
      origins.add(url.origin);
    } else hostnames.add(entry.toLowerCase());
  }
  return { origins, hostnames };
}

/** The 403 to send when the request's `Origin` is present and not allowed, else undefined. */
export function refusedOrigin(request: Request, rules: ReturnType<typeof originRules>): Response | undefined {
  const header = request.headers.get('origin');
  if (header === null || header === '') return undefined;
  let origin: URL | undefined;
  try {
    origin = new URL(header);
  } catch {
    origin = undefined;
  }
  const own = new URL(request.url).origin;
  // `null` (an opaque origin: a sandboxed frame, a file) parses to no host, and is refused like any unknown page.
  if (origin !== undefined && origin.host !== '') {
    if (origin.origin === own || rules.origins.has(origin.origin) || rules.hostnames.has(origin.hostname)) return undefined;
  }
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: `Origin ${header} is not allowed to call this MCP server.` }, id: null },
    { status: 403 },
  );
}
