/**
 * Shapes shared by several records. They mirror spec/common/schemas.yaml; responses are checked against the
 * spec itself in the tests (validateResponses), so a drift shows up there.
 */
export interface PolicyLimits {
  perAuth?: number;
  perDay?: number;
  perMonth?: number;
}

export interface Policy {
  requireIntent?: boolean;
  requireAttestation?: boolean;
  requireApproval?: boolean;
  autoApproveBelow?: number;
  attestationWindowMinutes?: number;
  cooldownMinutes?: number;
  ttlMinutes?: number;
  ttlDays?: number;
  limits?: PolicyLimits;
  allowedMccs?: string[];
  blockedMccs?: string[];
  allowedMerchants?: string[];
  lockToFirstMerchant?: boolean;
  onDrift?: 'allow' | 'freeze';
  ttlAction?: 'close' | 'freeze';
}

export interface SpendingLimit {
  amount: number;
  currency: string;
  interval?: 'daily' | 'weekly' | 'monthly' | 'all_time' | 'per_authorization' | null;
}

export type Metadata = Record<string, unknown>;

/** Who made a change (enums.yaml Actor): `api` for a call with a key, `system` for a cascade or an engine rule. */
export type Actor = 'api' | 'system' | 'dashboard';
