/** Credentials never reach a log line or an error message, whatever the log level. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'api-key', 'cookie', 'set-cookie', 'proxy-authorization']);
/** API keys and webhook signing secrets: the prefix is kept so a log still says which kind of secret was there. */
const SECRET = /\b(sk_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g;

/** Headers (names in lower case) as a log line may show them. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const name in headers) {
    safe[name] = CREDENTIAL_HEADERS.has(name) ? '[redacted]' : redactText(headers[name] ?? '');
  }
  return safe;
}

export function redactText(text: string): string {
  return text.replace(SECRET, '$1[redacted]');
}
