import { WebhookVerificationError } from '../errors.js';

/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];

/** Secrets as a non-empty list; the whole string, `whsec_` prefix included, is the key. */
export function secretList(secret: unknown): readonly string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length > 0 && secrets.every((entry) => typeof entry === 'string' && entry !== '')) return secrets as string[];
  throw new WebhookVerificationError(
    'invalid_secret',
    'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.',
  );
}
