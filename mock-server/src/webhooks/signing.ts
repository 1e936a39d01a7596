/** What signs one attempt: its body, its secrets, its time and its delivery's id. */
interface SigningInput {
  body: string;
  /** The active secrets, newest first: one signature per secret in each scheme. */
  secrets: string[];
  /** Unix seconds of the attempt, on the tenant's test clock. */
  timestamp: number;
  /** The delivery's message id: `webhook-id`, the same on every attempt of the delivery and on every resend. */
  messageId: string;
  /** Adds the Standard Webhooks headers beside Cardrail-Signature (the webhook's `standardWebhooks`). */
  standardWebhooks: boolean;
}

/** The signature headers of one attempt: `Cardrail-Signature`, and `webhook-id`, `-timestamp`, `-signature`. */
export type Sign = (input: SigningInput) => Promise<Record<string, string>>;

let loading: Promise<Sign> | undefined;

/**
 * The SDK's signing (`@cardrail/sdk/webhooks`, the same code receivers verify with), loaded with the first attempt: a
 * mock that sends no webhook never loads it, and a server's start does not wait for it. A load that fails (a chunk
 * that did not arrive) is tried again by the next attempt.
 */
export function signer(): Promise<Sign> {
  loading ??= import('@cardrail/sdk/webhooks').then(
    ({ generateWebhookHeaders }): Sign =>
      (input) =>
        generateWebhookHeaders({
          payload: input.body,
          secret: input.secrets,
          timestamp: input.timestamp,
          id: input.messageId,
          standardWebhooks: input.standardWebhooks,
        }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
