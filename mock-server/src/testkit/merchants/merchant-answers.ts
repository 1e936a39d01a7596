import { textToBase64url } from '../../core/base64url.js';

/** The Payment scheme's problem details (draft-httpauth-payment-00 "Error Codes"): RFC 9457, one type per code. */
export function problem(status: number, code: string, detail: string, headers: Record<string, string> = {}): Response {
  const body = { type: `https://paymentauth.org/problems/${code}`, title: code, status, detail };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers },
  });
}

/** base64url (no padding) of a JSON value, as the drafts write `request`, credentials and receipts. */
export function base64urlJson(value: unknown): string {
  return textToBase64url(JSON.stringify(value));
}

/** A JSON body, as the ACP fakes answer (and the MPP fake's paid resource). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
