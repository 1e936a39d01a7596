/** A JSON Web Key as stored and checked (RFC 7517): public members only, except a receipt key the mock keeps. */
export interface MandateJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  kid?: string;
  alg?: string;
  use?: string;
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
