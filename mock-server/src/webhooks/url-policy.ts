/**
 * Where the mock may send webhooks (docs/webhooks.md#where-deliveries-may-go). A local mock must reach receivers on
 * loopback and private addresses (tests, containers), so those stay open; what is refused is what no receiver
 * needs and an attacker wants: cloud metadata services, link-local addresses, unspecified addresses, and URLs
 * carrying credentials. An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible, IPv4-translated,
 * NAT64, 6to4, Teredo) is judged by that IPv4 address, and a Teredo address by both it carries. A host named in `allowHosts` is open whatever its address, except that a
 * cloud metadata address is open only when that address itself is named: opening a name (or a range's neighbour)
 * never opens one.
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

  /**
   * Whether the transport may connect to `address`, which `hostname` resolved to: a metadata address only when named
   * itself; any other when the hostname was opened or the address is not refused.
   */
  allowsAddress(hostname: string, address: string): boolean {
    if (metadataService(address) !== undefined) return this.#allowed.has(normalizeHost(address));
    return this.allows(hostname) || addressProblem(address) === undefined;
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
    // A metadata address is open only when named itself: allowsAddress with the address as its own hostname.
    if (metadataService(parsed.hostname) !== undefined) {
      return this.allowsAddress(parsed.hostname, parsed.hostname) ? undefined : addressProblem(parsed.hostname);
    }
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
 * Cloud metadata services, by address (docs/webhooks.md#where-deliveries-may-go): what a server-side request forgery
 * goes for first. Refused even when a host opened with `allowHosts` resolves to one.
 */
const METADATA_SERVICES: readonly { address: string; service: string }[] = [
  { address: '169.254.169.254', service: 'AWS, Google Cloud, Azure, Oracle Cloud, DigitalOcean and OpenStack instance metadata' },
  { address: '169.254.170.2', service: 'AWS ECS task metadata' },
  { address: 'fd00:ec2::254', service: 'AWS instance metadata over IPv6' },
  { address: '100.100.100.200', service: 'Alibaba Cloud instance metadata' },
  { address: '168.63.129.16', service: 'the Azure WireServer' },
];

/**
 * Why an address may not receive webhooks, for a hostname as URL.hostname writes it (IPv4 dotted, IPv6 in
 * brackets) or a bare address as a resolver returns it; undefined for a name or an allowed address. An IPv6 address
 * that carries IPv4 addresses is refused when any of them is.
 */
export function addressProblem(host: string): string | undefined {
  const metadata = metadataService(host);
  if (metadata !== undefined) return `is a cloud metadata address (${metadata})`;
  for (const form of addressForms(host)) {
    const problem = form.length === 4 ? ipv4Problem(form) : ipv6Problem(form);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The metadata service at an address (in any of its IPv4 or IPv6 forms, or carried by it), or undefined. */
function metadataService(host: string): string | undefined {
  for (const form of addressForms(host)) {
    const key = keyOf(form);
    const service = METADATA_SERVICES.find((entry) => metadataKeysOf().get(entry.address) === key)?.service;
    if (service !== undefined) return service;
  }
  return undefined;
}

/** An address in one canonical form, so that every way of writing it compares equal: dotted IPv4, or eight groups. */
function keyOf(form: number[]): string {
  return form.join(form.length === 4 ? '.' : ':');
}

/** What an address is judged as: the four octets of an IPv4 address; the IPv4 addresses an IPv6 one carries, or else its eight groups. */
function addressForms(host: string): number[][] {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const v4 = parseIPv4(bare);
  if (v4) return [v4];
  const v6 = bare.includes(':') ? parseIPv6(bare) : undefined;
  if (!v6) return [];
  const carried = carriedIPv4(v6);
  return carried.length > 0 ? carried : [v6];
}

/** Each metadata service's address in canonical form: made on the first check, not while every mock's code loads. */
let metadataKeys: Map<string, string> | undefined;
function metadataKeysOf(): Map<string, string> {
  metadataKeys ??= new Map(METADATA_SERVICES.map(({ address }) => [address, keyOf(addressForms(address)[0] as number[])]));
  return metadataKeys;
}

/**
 * The IPv4 addresses an IPv6 address reaches: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks; :: and ::1 are not), the NAT64 prefix
 * (64:ff9b::/96), 6to4 (2002::/16, RFC 3056: the IPv4 address in bits 16 to 48, where a 6to4 relay sends the
 * packets), and Teredo (2001::/32, RFC 4380): the client's address in the last 32 bits, inverted (XOR 0xffffffff),
 * where a relay sends the packets, and the Teredo server's in bits 32 to 64, which a peer contacts to reach the
 * client. None for any other IPv6 address.
 */
function carriedIPv4(groups: number[]): number[][] {
  const group = (index: number) => groups[index] as number;
  const zero = (from: number, to: number) => groups.slice(from, to).every((value) => value === 0);
  const octets = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const mapped = zero(0, 5) && group(5) === 0xffff;
  const translated = zero(0, 4) && group(4) === 0xffff && group(5) === 0;
  const compatible = zero(0, 6) && !(group(6) === 0 && (group(7) === 0 || group(7) === 1));
  const nat64 = group(0) === 0x64 && group(1) === 0xff9b && zero(2, 6);
  if (mapped || translated || compatible || nat64) return [octets(group(6), group(7))];
  if (group(0) === 0x2002) return [octets(group(1), group(2))];
  if (group(0) === 0x2001 && group(1) === 0) {
    return [octets(group(6) ^ 0xffff, group(7) ^ 0xffff), octets(group(2), group(3))];
  }
  return [];
}

function ipv4Problem([a, b]: number[]): string | undefined {
  if (a === 0) return 'is an unspecified address (0.0.0.0/8)';
  if (a === 169 && b === 254) return 'is a link-local address (169.254.0.0/16)';
  return undefined;
}

function ipv6Problem(groups: number[]): string | undefined {
  if (groups.every((group) => group === 0)) return 'is an unspecified address (::)';
  if (((groups[0] as number) & 0xffc0) === 0xfe80) return 'is a link-local address (fe80::/10)';
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
