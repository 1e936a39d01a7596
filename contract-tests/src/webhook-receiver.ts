import { createServer, type Server } from 'node:http';
import { constructEvent, SIGNATURE_HEADER, STANDARD_WEBHOOKS_HEADERS } from '@cardrail/sdk/webhooks';
import { http, type HttpHandler } from 'msw';
import type { ContractRecorder } from './recorder.js';
import { ENVELOPE_OF, formatErrors, VARIANTS, type Variant } from './spec.js';

export interface ReceivedDelivery {
  variant: Variant;
  eventId: string | undefined;
  type: string | undefined;
  body: string;
  signature: string | null;
  /** The Standard Webhooks message id (`webhook-id`), null when the delivery has none. */
  webhookId: string | null;
  /** The `webhook-signature` header, null when the delivery has none. */
  standardSignature: string | null;
  /** Delivered to the endpoint of webhooks that turned the Standard Webhooks headers off (`url(variant, false)`). */
  plain: boolean;
  verified: boolean;
  valid: boolean;
  /** The status the receiver answered with. */
  answered: number;
}

/** The span of test-clock time (unix seconds) in which a delivery may have been signed. */
export type ClockWindow = () => { from: number; to: number };

const TOLERANCE_SECONDS = 300;

/** `/hooks/<variant>`, or `/hooks/<variant>/plain` for webhooks with `standardWebhooks: false`. */
const HOOK_PATH = /\/hooks\/(customer|user)(\/plain)?$/;

/**
 * The webhook endpoint of a suite: one URL per variant (`/hooks/customer`, `/hooks/user`), and one per variant for
 * webhooks that turned the Standard Webhooks headers off (`.../plain`). Every delivery must verify with the SDK's
 * `constructEvent` given the request's headers (both schemes, which must agree), carry the Standard Webhooks headers
 * exactly when its endpoint expects them, and validate against the `webhooks:` schema of its type in the variant's
 * document; anything else is a violation recorded with the suite's recorder. Reachable as a Node server or through MSW.
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  readonly #secrets = new Map<Variant, string[]>();
  readonly #clocks = new Map<Variant, ClockWindow>();
  readonly #failures = new Map<Variant, number>();
  readonly #waiters = new Set<() => void>();
  #server: Server | undefined;
  #baseUrl: string | undefined;

  constructor(private readonly recorder: ContractRecorder) {}

  /** Secrets a delivery may be signed with (the newest last); rotation adds one beside the old. */
  addSecret(variant: Variant, secret: string): void {
    this.#secrets.set(variant, [...(this.#secrets.get(variant) ?? []), secret]);
  }

  /** The organization's test clock: deliveries are signed with its time, which tests move forward. */
  useClock(variant: Variant, window: ClockWindow): void {
    this.#clocks.set(variant, window);
  }

  /** Answer the next `count` deliveries to this variant's main endpoint with 503, as a receiver that is down. */
  failNext(variant: Variant, count: number): void {
    this.#failures.set(variant, count);
  }

  /** The endpoint of a variant's webhooks; `standardWebhooks: false` webhooks get their own. */
  url(variant: Variant, standardWebhooks = true): string {
    if (!this.#baseUrl) throw new Error('The receiver has no address: call listen() or useBaseUrl() first.');
    return `${this.#baseUrl}/hooks/${variant}${standardWebhooks ? '' : '/plain'}`;
  }

  /** Checks and stores one delivery and answers it like a well-behaved receiver. */
  async handle(request: Request): Promise<Response> {
    const path = HOOK_PATH.exec(new URL(request.url).pathname);
    const variant = VARIANTS.find((v) => v === path?.[1]);
    if (!variant) return new Response('unknown hook', { status: 404 });
    const body = await request.text();
    const signature = request.headers.get(SIGNATURE_HEADER);
    const delivery: ReceivedDelivery = {
      variant,
      eventId: undefined,
      type: undefined,
      body,
      signature,
      webhookId: request.headers.get(STANDARD_WEBHOOKS_HEADERS.id),
      standardSignature: request.headers.get(STANDARD_WEBHOOKS_HEADERS.signature),
      plain: path?.[2] !== undefined,
      verified: false,
      valid: false,
      answered: 200,
    };
    const violation = (check: 'webhook_signature' | 'webhook_schema', message: string): void =>
      this.recorder.addViolation({
        check,
        operation: `${variant} webhook`,
        request: `POST ${request.url} ${body.slice(0, 300)}`,
        status: 0,
        message,
      });

    const standardHeaders = Object.values(STANDARD_WEBHOOKS_HEADERS).filter((name) => request.headers.has(name));
    if (delivery.plain ? standardHeaders.length > 0 : standardHeaders.length < 3) {
      violation(
        'webhook_signature',
        delivery.plain
          ? `a webhook with standardWebhooks: false was sent ${standardHeaders.join(', ')}`
          : `the Standard Webhooks headers are incomplete: only ${standardHeaders.join(', ') || 'none'} of webhook-id, webhook-timestamp, webhook-signature`,
      );
    }
    if (signature === null) violation('webhook_signature', `no ${SIGNATURE_HEADER} header`);
    try {
      const event = await constructEvent({
        payload: body,
        headers: request.headers,
        secret: this.#secrets.get(variant) ?? [],
        now: this.#verificationTime(variant, signature),
      });
      delivery.verified = true;
      delivery.eventId = (event as { id?: string }).id;
      delivery.type = event.type;
    } catch (error) {
      violation('webhook_signature', `${(error as Error).name}: ${(error as Error).message} (header ${signature})`);
    }
    if (delivery.verified && delivery.type !== undefined) {
      const spec = this.recorder.specs[variant].events.get(delivery.type);
      if (!spec) violation('webhook_schema', `event type ${delivery.type} is not in the ${variant} document's webhooks`);
      else if (!spec.validate(JSON.parse(body)))
        violation(
          'webhook_schema',
          `${delivery.type}: ${formatErrors(spec.validate.errors).join('; ')}; body ${body.slice(0, 400)}`,
        );
      else {
        delivery.valid = true;
        this.recorder.recordEvent(ENVELOPE_OF[variant], delivery.type);
      }
    }
    const failures = delivery.plain ? 0 : (this.#failures.get(variant) ?? 0);
    if (failures > 0) {
      this.#failures.set(variant, failures - 1);
      delivery.answered = 503;
    }
    this.deliveries.push(delivery);
    for (const wake of this.#waiters) wake();
    return new Response(delivery.answered === 200 ? 'ok' : 'down', { status: delivery.answered });
  }

  /**
   * The `now` handed to the SDK: the signing time when it lies in the test clock's current window (the mock signs
   * with its test clock, which the suite advances), else the nearest end of the window so the SDK's tolerance check
   * reports how far off it is.
   */
  #verificationTime(variant: Variant, header: string | null): number | undefined {
    const window = this.#clocks.get(variant);
    if (!window) return undefined;
    const { from, to } = window();
    const t = Number(/(?:^|,)\s*t=(\d+)/.exec(header ?? '')?.[1]);
    if (!Number.isFinite(t)) return from;
    return Math.min(Math.max(t, from - TOLERANCE_SECONDS), to + TOLERANCE_SECONDS);
  }

  /** Resolves once every id has been delivered to the variant's endpoint; rejects with the missing ids. */
  async waitForEvents(variant: Variant, eventIds: Iterable<string>, timeoutMs = 15_000): Promise<void> {
    const wanted = new Set(eventIds);
    const missing = (): string[] => {
      const seen = new Set(this.deliveries.filter((d) => d.variant === variant).map((d) => d.eventId));
      return [...wanted].filter((id) => !seen.has(id));
    };
    await this.waitUntil(
      () => missing().length === 0,
      timeoutMs,
      () => `${missing().length} event(s) never delivered to the ${variant} webhook: ${missing().slice(0, 20).join(', ')}`,
    );
  }

  /** Resolves when `done()` holds, re-checked on each delivery; rejects with `explain()` after the timeout. */
  async waitUntil(done: () => boolean, timeoutMs: number, explain: () => string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(explain());
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 250));
        this.#waiters.add(wake);
      });
    }
  }

  /** Serves the endpoints on a free local port. */
  async listen(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
        const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
          method: req.method ?? 'POST',
          headers,
          body: Buffer.concat(chunks),
        });
        void this.handle(request).then(async (response) => {
          res.writeHead(response.status, { 'content-type': 'text/plain' });
          res.end(await response.text());
        });
      });
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    this.#baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this.#baseUrl;
  }

  /** For MSW: deliveries to this (fictitious) origin are answered in-process by `mswHandlers()`. */
  useBaseUrl(baseUrl: string): void {
    this.#baseUrl = baseUrl;
  }

  mswHandlers(): HttpHandler[] {
    return [
      http.post(`${this.#baseUrl}/hooks/:variant`, ({ request }) => this.handle(request)),
      http.post(`${this.#baseUrl}/hooks/:variant/plain`, ({ request }) => this.handle(request)),
    ];
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
