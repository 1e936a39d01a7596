/**
 * The secret an MCP server signs what it hands a client to hold and give back: the `requestState` of an
 * `input_required` answer and the id of a task. A client can read both but change neither: a value signed by another
 * secret, or for another agent, is refused.
 */
export type StateSecret = string | Uint8Array;

const MIN_BYTES = 32;
const encoder = new TextEncoder();

/** The secret as bytes, refused when shorter than 32 bytes (HMAC-SHA256 wants a key as long as its output). */
export function stateSecretBytes(secret: StateSecret): Uint8Array {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : Uint8Array.from(secret);
  if (bytes.byteLength < MIN_BYTES) {
    throw new TypeError(`stateSecret must be at least ${MIN_BYTES} bytes long, got ${bytes.byteLength}.`);
  }
  return bytes;
}

/**
 * A random secret, for a server whose signed values need not outlive its process: what a client holds is refused
 * once the process restarts, and by any other process.
 */
export function randomStateSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(MIN_BYTES));
}

/**
 * A secret derived from the API key the server calls Cardrail with (HMAC-SHA256 of a fixed label, keyed by the API
 * key): the same after a restart and on every process started with the same key, so tasks and retried calls survive
 * a restart, without another secret to configure. Anyone holding the API key could derive it, which gives them
 * nothing they could not already do with the key.
 */
export async function stateSecretFromApiKey(apiKey: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode('cardrail-mcp/state-secret/v1')));
}
