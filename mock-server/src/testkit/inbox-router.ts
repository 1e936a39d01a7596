import type { FetchFunction } from '../webhooks/dispatcher.js';

/** The origin of the in-process webhook receivers: deliveries to it never leave the process. */
const INBOX_ORIGIN = 'https://inbox.cardrail.test';

/** Receives one delivery in-process and answers its status. */
export type InboxReceiver = (request: Request) => Promise<Response>;

/** Where an inbox registers its receiver and gets the URL its webhook delivers to. */
export interface InboxRoutes {
  register(path: string, receiver: InboxReceiver): { url: string; remove(): void };
}

/**
 * Routes webhook deliveries addressed to an in-process inbox to it, and every other delivery to the mock's own
 * fetch (the global one by default, looked up at each attempt so that MSW can intercept).
 */
export class InboxRouter implements InboxRoutes {
  readonly #receivers = new Map<string, InboxReceiver>();

  constructor(private readonly fallback: FetchFunction | undefined) {}

  /** Registers a receiver; returns its URL and the function that removes it. */
  register(path: string, receiver: InboxReceiver): { url: string; remove(): void } {
    const url = `${INBOX_ORIGIN}/${path}`;
    this.#receivers.set(url, receiver);
    return { url, remove: () => this.#receivers.delete(url) };
  }

  readonly fetch: FetchFunction = (input, init) => {
    const receiver = this.#receivers.get(input);
    if (receiver) return receiver(new Request(input, init));
    return this.fallback ? this.fallback(input, init) : globalThis.fetch(input, init);
  };

  clear(): void {
    this.#receivers.clear();
  }
}
