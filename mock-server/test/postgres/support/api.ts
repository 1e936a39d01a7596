/** A JSON answer of the mock's API. */
export interface Answer {
  status: number;
  text: string;
  body: any;
  headers: Headers;
}

/** Calls the API of the instance at `baseUrl` (`http://127.0.0.1:<port>/v1`) with a customer key. */
export function api(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, text, body: parsed, headers: response.headers };
  };
}

/** A funded customer with approved KYC: its id. */
export async function fundedCustomer(call: ReturnType<typeof api>, amount: number): Promise<string> {
  const customer = await call('POST', '/customers', { email: 'funds@example.com' });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${customer.text}`);
  const id = customer.body.id as string;
  for (const [path, body] of [
    ['/simulate/kyc', { customerId: id, status: 'approved' }],
    ['/simulate/deposits', { customerId: id, amount }],
  ] as const) {
    const answer = await call('POST', path, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`);
  }
  return id;
}

/** Polls `condition` until it holds, within `timeoutMs` (a wait by condition, never a fixed sleep). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs: number,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
