/** The parameters of a `WWW-Authenticate: Bearer k="v", ...` header (quoted values unescaped); throws on another scheme. */
export function bearerChallenge(header: string | null): Record<string, string> {
  if (header === null || !header.startsWith('Bearer ')) throw new Error(`Not a Bearer challenge: ${header}`);
  const params: Record<string, string> = {};
  for (const [, name, value] of header.slice('Bearer '.length).matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"(?:, |$)/g))
    params[name as string] = (value as string).replace(/\\(.)/g, '$1');
  return params;
}
