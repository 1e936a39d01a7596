/** Signs a delivery's body: the `Cardrail-Signature` header's name and value. */
export type Sign = (body: string, secrets: string[], timestamp: number) => Promise<{ name: string; value: string }>;

let loading: Promise<Sign> | undefined;

/**
 * The SDK's signing (`@cardrail/sdk/webhooks`, the same code receivers verify with), loaded with the first attempt: a
 * mock that sends no webhook never loads it, and a server's start does not wait for it. A load that fails (a chunk
 * that did not arrive) is tried again by the next attempt.
 */
export function signer(): Promise<Sign> {
  loading ??= import('@cardrail/sdk/webhooks').then(
    ({ generateSignatureHeader, SIGNATURE_HEADER }): Sign =>
      async (body, secrets, timestamp) => ({
        name: SIGNATURE_HEADER,
        value: await generateSignatureHeader({ payload: body, secret: secrets, timestamp }),
      }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
