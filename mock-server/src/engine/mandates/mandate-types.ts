/** A JSON Web Key as stored and checked (RFC 7517): public members only, except a receipt key the mock keeps. */
export interface MandateJwk {
  /** The key type (RFC 7517 section 4.1): `EC` for the P-256 keys mandates and receipts are signed with. */
  kty: string;
  /** The curve of an `EC` key (RFC 7518 section 6.2.1.1): `P-256`. */
  crv?: string;
  /** The public x coordinate, base64url without padding (RFC 7518 section 6.2.1.2). */
  x?: string;
  /** The public y coordinate, base64url without padding (RFC 7518 section 6.2.1.3). */
  y?: string;
  /** The key id (RFC 7517 section 4.5) a JWS header names the key by; a trusted issuer key needs one. */
  kid?: string;
  /** The algorithm the key is used with (RFC 7517 section 4.4): `ES256` when given. */
  alg?: string;
  /** What the key is for (RFC 7517 section 4.2): `sig`, signatures. */
  use?: string;
  /** Any other member of RFC 7517 (a private member such as `d` is refused where a public key is asked for). */
  [member: string]: unknown;
}

/** What a presentation is verified against. */
export interface PresentationCheck {
  /** The trusted issuer key of a `kid`, or undefined. */
  issuerKey(kid: string): MandateJwk | undefined;
  /** The `aud` the closed mandate must name: `urn:cardrail:card:<cardId>`. */
  audience: string;
}

/** A presentation whose signatures and binding verified; times, replay and constraints are not checked yet. */
export interface VerifiedPresentation {
  /** The open payment mandate's claims, disclosures resolved. */
  open: Record<string, unknown>;
  /** The closed payment mandate's claims, disclosures resolved. */
  closed: Record<string, unknown>;
  nonce: string;
  /** The closed mandate's `iat` (epoch seconds). */
  presentedAt: number;
  /** base64url(SHA-256(the closed mandate's JWT)): AP2's receipt `reference`. */
  reference: string;
}

/**
 * The AP2 mandate a payment token was minted with (docs/mandates.md#payment-tokens): its open mandate's hash, its
 * closed mandate's reference, and the open mandate's constraints, which the authorization made with the token is
 * checked against again (its amount, the budget spent meanwhile, the execution window).
 */
export interface BoundMandate {
  openMandateHash: string;
  reference: string;
  constraints: unknown;
}
