/** Credentials never reach a log line or an error message, whatever the log level. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'api-key', 'cookie', 'set-cookie', 'proxy-authorization']);
/** API keys and webhook signing secrets: the prefix is kept so a log still says which kind of secret was there. */
const SECRET = /\b(sk_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g;

/** Headers as a log line may show them: credential headers replaced, secrets in other values cut to their prefix. */
export function redactHeaders(headers: Headers | Readonly<Record<string, string>>): Record<string, string> {
  const safe: Record<string, string> = {};
  const add = (value: string, name: string) => {
    safe[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? '[redacted]' : redactText(value);
  };
  if (headers instanceof Headers) headers.forEach(add);
  else for (const [name, value] of Object.entries(headers)) add(value, name);
  return safe;
}

export function redactText(text: string): string {
  return text.replace(SECRET, '$1[redacted]');
}
