import { stringify } from 'safe-stable-stringify';
import { checkDelegatePaymentRequest } from './acp-request-check.js';
import { json } from './merchant-answers.js';

/** The ACP version the fakes speak. */
export const ACP_VERSION = '2026-04-17';
const IDEMPOTENCY_KEY = /^.{1,255}$/;

/** What the vault keeps for a vault token (`vt_...`): the request's payment method and allowance. */
export interface VaultEntry {
  /** The vault token (`vt_...`). */
  id: string;
  /** The request's `payment_method` (the network token and its cryptogram). */
  paymentMethod: { number: string; cryptogram?: string; card_number_type: string };
  /** The request's `allowance`. */
  allowance: { max_amount: number; currency: string; checkout_session_id: string; merchant_id: string; expires_at: string };
}

/** ACP's error (ACP 2026-04-17 `Error`): a flat object, no envelope. */
function error(status: number, code: string, message: string, param?: string, headers: Record<string, string> = {}): Response {
  const type = code === 'too_many_requests' ? 'rate_limit_exceeded' : 'invalid_request';
  return json(status, { type, code, message, ...(param === undefined ? {} : { param }) }, headers);
}

/**
 * A PSP's `POST /agentic_commerce/delegate_payment` (ACP 2026-04-17, `openapi.delegate_payment.yaml` and
 * `rfc.delegate_payment.md`): bearer auth, `API-Version`, the body checked against the schema, a vault token
 * `vt_...` answered `201`, and ACP's idempotency (a key per request; the same key and an equal body answer the first
 * answer again with `Idempotent-Replayed: true`, a different body `422 idempotency_conflict`; keys kept 24 hours).
 */
export function createPspVault(options: { apiKey: string; now: () => number }) {
  const vault = new Map<string, VaultEntry>();
  const keys = new Map<string, { fingerprint: string; status: number; body: string; at: number }>();

  async function delegatePayment(request: Request): Promise<Response> {
    if (request.headers.get('authorization') !== `Bearer ${options.apiKey}`)
      return json(401, { type: 'invalid_request', code: 'invalid_card', message: 'a valid bearer key is required' });
    const version = request.headers.get('api-version');
    if (version !== ACP_VERSION)
      return json(400, {
        type: 'invalid_request',
        code: version === null ? 'missing_api_version' : 'unsupported_api_version',
        message: `API-Version ${ACP_VERSION} is required`,
        supported_versions: [ACP_VERSION],
      });
    const key = request.headers.get('idempotency-key');
    if (key === null || !IDEMPOTENCY_KEY.test(key))
      return error(400, 'idempotency_key_required', 'Idempotency-Key header is required');
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return error(400, 'invalid_card', 'the body is not JSON', '$');
    }
    // Equal bodies are equal JSON (key order aside): ACP's semantic equivalence.
    const fingerprint = stringify(body) ?? '';
    const now = options.now();
    const earlier = keys.get(key);
    if (earlier && now - earlier.at < 86_400_000) {
      if (earlier.fingerprint !== fingerprint)
        return error(422, 'idempotency_conflict', 'Idempotency-Key has already been used with a different request body');
      return json(earlier.status, JSON.parse(earlier.body), { 'Idempotent-Replayed': 'true' });
    }
    const problem = checkDelegatePaymentRequest(body);
    if (problem) return remember(key, fingerprint, 400, { type: 'invalid_request', code: 'invalid_card', ...problem });
    const { payment_method: paymentMethod, allowance } = body as Pick<VaultEntry, never> & {
      payment_method: VaultEntry['paymentMethod'];
      allowance: VaultEntry['allowance'];
    };
    if (Date.parse(allowance.expires_at) <= now)
      return remember(key, fingerprint, 400, {
        type: 'invalid_request',
        code: 'invalid_card',
        message: 'the allowance has expired',
        param: '$.allowance.expires_at',
      });
    const id = `vt_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
    vault.set(id, { id, paymentMethod, allowance });
    const metadata = { merchant_id: allowance.merchant_id, idempotency_key: key };
    return remember(key, fingerprint, 201, { id, created: new Date(now).toISOString(), metadata });
  }

  function remember(key: string, fingerprint: string, status: number, body: unknown): Response {
    keys.set(key, { fingerprint, status, body: JSON.stringify(body), at: options.now() });
    return json(status, body);
  }

  return { vault, delegatePayment };
}
