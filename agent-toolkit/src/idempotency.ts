/** JSON with object keys sorted, so that one input gives one text whatever order its fields came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The idempotency key of a tool call that changes something: a SHA-256 (Web Crypto) of the agent, the tool, the
 * framework's call id and the input. The same call repeated (a retry, a run resumed after an approval) is carried
 * out once; a model reusing a call id with another input is another request, not a refused reuse of the key.
 */
export async function callIdempotencyKey(agentId: string, tool: string, callId: string, input: unknown): Promise<string> {
  return `toolcall_${await sha256Hex(canonicalJson({ agentId, tool, callId, input }))}`;
}

/** SHA-256 of a text (Web Crypto), in hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
