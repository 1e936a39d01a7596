import { CardrailError } from '../errors.js';

/** `test` for `sk_test_` keys, `live` for `sk_live_` keys. */
export type Mode = 'test' | 'live';

/** `sk_test_` keys act on test data only; `sk_live_` keys move real money. */
export function modeFromApiKey(apiKey: unknown): Mode {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new CardrailError({
      code: 'missing_api_key',
      message: 'No Cardrail API key: pass { apiKey } to the client or set the CARDRAIL_API_KEY environment variable.',
    });
  }
  if (apiKey.startsWith('sk_test_')) return 'test';
  if (apiKey.startsWith('sk_live_')) return 'live';
  throw new CardrailError({
    code: 'invalid_api_key',
    message: 'A Cardrail API key starts with "sk_test_" (test mode) or "sk_live_" (live mode); the key given does not.',
  });
}
