/**
 * Where the mock may send webhooks (docs/webhooks.md#where-deliveries-may-go). A local mock must reach receivers on
 * loopback and private addresses (tests, containers), so those stay open; what is refused is what no receiver
 * needs and an attacker wants: link-local addresses (cloud metadata services live at 169.254.169.254), unspecified
 * addresses, and URLs carrying credentials. A host named in `allowHosts` is open whatever its address.
 *
 * This checks the URL as written. A hostname is checked where it is resolved, by the transport that connects (the
 * Node server refuses to connect to a refused address; see adapters/webhook-fetch.ts).
 */
export class WebhookUrlPolicy {
  readonly #allowed: ReadonlySet<string>;

  constructor(allowHosts: readonly string[] = []) {
    this.#allowed = new Set(allowHosts.map(normalizeHost));
  }

  /** Whether a host (as URL.hostname writes it) was opened explicitly. */
  allows(hostname: string): boolean {
    return this.#allowed.has(hostname.toLowerCase());
  }

  /** Why a URL may not receive webhooks, or undefined when it may. */
  problem(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'is not a valid URL';
    }
    // URL lowercases the scheme: `HTTPS://` is https.
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must use http or https';
    if (parsed.username !== '' || parsed.password !== '') return 'must not contain credentials (user:password@)';
    if (this.allows(parsed.hostname)) return undefined;
    return addressProblem(parsed.hostname);
  }
}

function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  try {
    return new URL(`http://${trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed}/`).hostname;
  } catch {
    return trimmed;
  }
}

/**
 * Why an address may not receive webhooks, for a hostname as URL.hostname writes it (IPv4 dotted, IPv6 in
 * brackets) or a bare address as a resolver returns it; undefined for a name or an allowed address.
 */
export function addressProblem(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const v4 = parseIPv4(bare);
  if (v4) return ipv4Problem(v4);
  const v6 = bare.includes(':') ? parseIPv6(bare) : undefined;
  if (v6) return ipv6Problem(v6);
  return undefined;
}

function ipv4Problem([a, b]: number[]): string | undefined {
  if (a === 0) return 'is an unspecified address (0.0.0.0/8)';
  if (a === 169 && b === 254) return 'is a link-local address (169.254.0.0/16)';
  return undefined;
}

function ipv6Problem(groups: number[]): string | undefined {
  if (groups.every((group) => group === 0)) return 'is an unspecified address (::)';
  if (((groups[0] as number) & 0xffc0) === 0xfe80) return 'is a link-local address (fe80::/10)';
  // IPv4-mapped (::ffff:a.b.c.d) and the NAT64 prefix (64:ff9b::/96) reach the embedded IPv4 address.
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (mapped || nat64) {
    const high = groups[6] as number;
    const low = groups[7] as number;
    return ipv4Problem([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return undefined;
}

function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (zone index dropped), or undefined when it is not one. */
function parseIPv6(text: string): number[] | undefined {
  let address = text.split('%')[0] as string;
  // A trailing dotted IPv4 part stands for the last two groups.
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (!v4) return undefined;
    address = `${address.slice(0, lastColon + 1)}${((v4[0] as number) * 256 + (v4[1] as number)).toString(16)}:${((v4[2] as number) * 256 + (v4[3] as number)).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}
