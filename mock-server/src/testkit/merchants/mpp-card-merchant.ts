import type { CardrailClient } from '@cardrail/sdk';
import { base64urlToText } from '../../core/base64url.js';
import { loopbackOrigin } from './loopback.js';
import { base64urlJson, json, problem } from './merchant-answers.js';
import { generateMerchantKey, type MerchantKey, merchantJose } from './merchant-jose.js';

/** What an MPP card merchant fake can be told to get wrong, each a fault a Client Enabler must survive. */
export type MppMerchantFault =
  /** Its challenges expired a minute ago: a client must refuse them before minting. */
  | 'expired-challenge'
  /** Its challenges carry its key under another `kid` than the one it decrypts with: it refuses every credential. */
  | 'wrong-kid'
  /** Its challenges name their key by a `jwksUri` on another origin than the realm's: Cardrail fetches no key. */
  | 'key-url-on-other-origin'
  /** It issues the same challenge id every time: a second token for an open or used challenge is refused. */
  | 'replayed-challenge'
  /** It authorizes one base unit more than its challenge asked: the token is declined `token_amount_exceeded`. */
  | 'overcharge';

/** Options of `createMppCardMerchant`. */
export interface MppCardMerchantOptions {
  /** A client of the mock (any organization's): the merchant's acquirer, which authorizes the token it decrypts. */
  acquirer: CardrailClient;
  /** Where the merchant is reached: an http(s) URL on loopback (its origin is the challenges' `realm`). */
  url: string;
  /** The price of the resource, in base units (cents for USD). */
  amount: number;
  /** Lowercase ISO 4217 (default `usd`). */
  currency?: string;
  /** The merchant's display name (`methodDetails.merchantName`). */
  merchantName: string;
  /** Its id at its acquirer (`recipient`), which the token is then bound to. */
  recipient?: string;
  /** What is sold (`description` of the request). */
  description?: string;
  /** How long a challenge lasts on the acquirer's test clock (default 5 minutes). */
  challengeTtlSeconds?: number;
  /** A fault to make (none by default). */
  fault?: MppMerchantFault;
}

/** What the merchant did with one credential. */
export interface MppMerchantPayment {
  /** The challenge the credential answered. */
  challengeId: string;
  /** The token number and cryptogram the merchant decrypted (with jose and its private key). */
  token: { paymentToken: string; eci: string };
  /** The cryptogram the merchant decrypted. */
  dynamicDataValue: string;
  /** The acquirer's authorization: its id, status and decline reason. */
  transaction: { id: string; status: string; declinedReason?: string | null | undefined };
}

/** An MPP card merchant, in process: `handle` answers a request as the merchant would. */
export interface MppCardMerchant {
  /** The merchant's answer to a request: a 402 challenge, the paid resource with `Payment-Receipt`, or a problem. */
  handle(request: Request): Promise<Response>;
  /** The merchant's encryption key (its private key never leaves the fake). */
  readonly key: Pick<MerchantKey, 'kid' | 'publicJwk'>;
  /** Every challenge id issued, in order. */
  readonly challenges: readonly string[];
  /** Every credential authorized at the acquirer, in order. */
  readonly payments: readonly MppMerchantPayment[];
}

interface Issued {
  params: Record<string, string>;
  expiresAt: number;
  answer?: { status: number; body: string; headers: Record<string, string> };
  failed?: boolean;
}

/**
 * A merchant that sells one resource for an MPP `card` charge (draft-card-charge-00): it answers `402` with
 * `WWW-Authenticate: Payment ... method="card", intent="charge"` carrying its RSA key (generated, 2048 bits), opens
 * the credential's JWE with jose (`compactDecrypt`, RSA-OAEP-256 and A256GCM only, its `kid` checked), checks the
 * echoed challenge and the network, authorizes the token at its acquirer (`simulate.authorize` with the token), and
 * answers `200` with `Payment-Receipt`. A challenge id answered once gets the same `200` again (the draft's replay
 * rule), one that failed gets `409`, an expired one a fresh `402`. Loopback only.
 */
export async function createMppCardMerchant(options: MppCardMerchantOptions): Promise<MppCardMerchant> {
  const origin = loopbackOrigin(options.url, 'createMppCardMerchant: url');
  const realm = new URL(origin).host;
  const key = await generateMerchantKey('enc-merchant-1');
  const currency = options.currency ?? 'usd';
  const ttlMs = (options.challengeTtlSeconds ?? 300) * 1000;
  const issued = new Map<string, Issued>();
  const challenges: string[] = [];
  const payments: MppMerchantPayment[] = [];
  const now = async () => Date.parse((await options.acquirer.simulate.clock.retrieve()).now);

  const methodDetails = (): Record<string, unknown> => {
    const common = { acceptedNetworks: ['visa', 'mastercard'], merchantName: options.merchantName };
    if (options.fault === 'key-url-on-other-origin')
      return { ...common, jwksUri: 'https://keys.attacker.example/jwks.json', kid: key.kid };
    if (options.fault === 'wrong-kid') return { ...common, encryptionJwk: { ...key.publicJwk, kid: 'enc-rotated-away' } };
    return { ...common, encryptionJwk: key.publicJwk };
  };

  async function challenge(detail: string, code = 'payment-required'): Promise<Response> {
    const at = await now();
    const expiresAt = options.fault === 'expired-challenge' ? at - 60_000 : at + ttlMs;
    const id =
      options.fault === 'replayed-challenge' && challenges[0] ? challenges[0] : `ch_${crypto.randomUUID().replaceAll('-', '')}`;
    const request = {
      amount: String(options.amount),
      currency,
      ...(options.recipient === undefined ? {} : { recipient: options.recipient }),
      ...(options.description === undefined ? {} : { description: options.description }),
      methodDetails: methodDetails(),
    };
    const params = {
      id,
      realm,
      method: 'card',
      intent: 'charge',
      expires: new Date(expiresAt).toISOString(),
      request: base64urlJson(request),
    };
    // A replayed challenge is the same challenge again, parameters and all.
    const entry = issued.get(id) ?? { params, expiresAt };
    issued.set(id, entry);
    challenges.push(id);
    const header = `Payment ${Object.entries(entry.params)
      .map(([name, value]) => `${name}="${value}"`)
      .join(', ')}`;
    return problem(402, code, detail, { 'WWW-Authenticate': header });
  }

  async function pay(credential: string): Promise<Response> {
    const decoded = base64urlToText(credential);
    let parsed: { challenge?: Record<string, unknown>; payload?: Record<string, unknown> } | undefined;
    try {
      parsed = decoded === undefined ? undefined : JSON.parse(decoded);
    } catch {
      parsed = undefined;
    }
    const id = parsed?.challenge?.id;
    if (!parsed?.payload || typeof id !== 'string')
      return challenge('the credential is not base64url JSON', 'malformed-credential');
    const entry = issued.get(id);
    if (!entry) return challenge(`challenge ${id} was never issued here`, 'invalid-challenge');
    if (entry.answer) return new Response(entry.answer.body, entry.answer); // a replay: the answer already given
    if (entry.failed) return problem(409, 'invalid-challenge', `challenge ${id} already failed`);
    if (entry.expiresAt <= (await now())) return challenge(`challenge ${id} expired`, 'payment-expired');
    const echoed = Object.entries(entry.params).every(([name, value]) => parsed.challenge?.[name] === value);
    if (!echoed) return fail(entry, 'verification-failed', 'the credential does not echo the challenge as issued');
    if (parsed.payload.network !== 'visa' && parsed.payload.network !== 'mastercard')
      return fail(entry, 'method-unsupported', `network ${String(parsed.payload.network)} is not accepted`, 400);
    const opened = await decrypt(String(parsed.payload.encryptedPayload));
    if (typeof opened === 'string') return fail(entry, 'verification-failed', opened);
    const amount = options.amount + (options.fault === 'overcharge' ? 1 : 0);
    const transaction = await options.acquirer.simulate.authorize({
      token: { number: opened.token.paymentToken, cryptogram: opened.dynamicData.dynamicDataValue },
      amount,
      currency,
      merchant: { name: options.merchantName, ...(options.recipient === undefined ? {} : { id: options.recipient }) },
    });
    payments.push({
      challengeId: id,
      token: { paymentToken: opened.token.paymentToken, eci: opened.token.eci },
      dynamicDataValue: opened.dynamicData.dynamicDataValue,
      transaction: { id: transaction.id, status: transaction.status, declinedReason: transaction.declinedReason },
    });
    if (transaction.status === 'declined')
      return fail(entry, 'verification-failed', `the issuer declined: ${transaction.declinedReason ?? 'declined'}`);
    const receipt = {
      challengeId: id,
      method: 'card',
      status: 'success',
      reference: transaction.id,
      timestamp: new Date(await now()).toISOString(),
    };
    const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'private', 'Payment-Receipt': base64urlJson(receipt) };
    entry.answer = {
      status: 200,
      body: JSON.stringify({ paid: true, amount, currency, transactionId: transaction.id }),
      headers,
    };
    return new Response(entry.answer.body, entry.answer);
  }

  function fail(entry: Issued, code: string, detail: string, status = 402): Response {
    entry.failed = true;
    return problem(status, code, detail);
  }

  async function decrypt(jwe: string) {
    const { compactDecrypt } = await merchantJose();
    try {
      const { plaintext, protectedHeader } = await compactDecrypt(jwe, key.privateKey, {
        keyManagementAlgorithms: ['RSA-OAEP-256'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      if (protectedHeader.kid !== key.kid) return `the JWE names key ${String(protectedHeader.kid)}, not ${key.kid}`;
      if ('zip' in protectedHeader) return 'the JWE is compressed';
      return JSON.parse(new TextDecoder().decode(plaintext)) as {
        token: { paymentToken: string; eci: string };
        dynamicData: { dynamicDataValue: string };
      };
    } catch (error) {
      return `the JWE does not open with the merchant's key: ${(error as Error).message}`;
    }
  }

  return {
    key: { kid: key.kid, publicJwk: key.publicJwk },
    challenges,
    payments,
    async handle(request) {
      if (new URL(request.url).origin !== origin) return json(404, { error: 'not this merchant' });
      const credential = /^Payment ([A-Za-z0-9_-]+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      return credential === undefined ? challenge('payment is required') : pay(credential);
    },
  };
}
