import type { CardSpendState } from '../aggregates/spend-state.js';
import type { IntentMatch } from '../intents/intent-matching.js';
import { normalizeName } from '../policy/merge-policies.js';
import type { CardRecord, EpochMs, Merchant } from '../types.js';
import type { Anomaly } from './anomaly.js';
import type { RiskConfig } from './risk-config.js';

const MINUTE_MS = 60_000;

/** What the seven detectors look at for one authorization attempt. */
export interface DetectorInput {
  now: EpochMs;
  amount: number;
  merchant: Merchant | undefined;
  card: CardRecord;
  state: CardSpendState;
  attested: boolean;
  lastCredentialAccess: EpochMs | null;
  intent: IntentMatch | null;
  cooldownMinutes: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The merchant a multi-use card is expected at: its hint, its lock, or the first merchant it was used at. */
function pinnedMerchant(card: CardRecord, state: CardSpendState): Merchant | null {
  const name = card.merchantHint ?? card.merchantLock ?? state.firstMerchant?.name ?? null;
  if (name === null) return null;
  const first = state.firstMerchant;
  const mcc = first && normalizeName(first.name) === normalizeName(name) ? first.mcc : undefined;
  return { name, mcc };
}

/** Runs every enabled detector of `config` (in the order of docs/risk.md#detectors) and returns the anomalies found. */
export function detectAnomalies(config: RiskConfig, input: DetectorInput): Anomaly[] {
  const { now, amount, merchant, state } = input;
  const anomalies: Anomaly[] = [];

  const duplicate = config.duplicateDetection;
  if (duplicate.enabled && merchant) {
    const previous = state.duplicates.lookup(merchant.name, amount);
    if (previous && now - previous.at <= duplicate.windowMinutes * MINUTE_MS) {
      anomalies.push({
        type: 'duplicate',
        action: duplicate.action,
        details: {
          previousTransactionId: previous.transactionId,
          windowMinutes: duplicate.windowMinutes,
          amount,
          merchantName: merchant.name,
        },
      });
    }
  }

  const velocity = config.velocityLimit;
  if (velocity.enabled) {
    const hourCount = state.countLastHour(now) + 1;
    const dayCount = state.countLastDay(now) + 1;
    const details =
      hourCount > velocity.maxPerHour
        ? { count: hourCount, limit: velocity.maxPerHour, window: 'hour' as const }
        : dayCount > velocity.maxPerDay
          ? { count: dayCount, limit: velocity.maxPerDay, window: 'day' as const }
          : null;
    if (details) anomalies.push({ type: 'velocity', action: velocity.action, details });
  }

  const spike = config.spendSpike;
  if (spike.enabled) {
    const baselineSpend = state.spendBeforeToday(now, spike.baselineDays);
    if (baselineSpend > 0) {
      const windowsPerBaseline = (spike.baselineDays * 24 * 60) / spike.windowMinutes;
      const baselineRate = baselineSpend / windowsPerBaseline;
      const currentRate = state.spendInWindow(now, spike.windowMinutes) + amount;
      const multiplier = currentRate / baselineRate;
      if (multiplier > spike.multiplier) {
        anomalies.push({
          type: 'spend_spike',
          action: spike.action,
          details: {
            currentRate,
            baselineRate: round2(baselineRate),
            multiplier: round2(multiplier),
            threshold: spike.multiplier,
            windowMinutes: spike.windowMinutes,
          },
        });
      }
    }
  }

  if (config.unattestedSpend.enabled && !input.attested) {
    anomalies.push({
      type: 'unattested',
      action: config.unattestedSpend.action,
      details: { amount, merchantName: merchant?.name ?? '', lastCredentialAccess: input.lastCredentialAccess },
    });
  }

  if (config.intentMismatch.enabled && input.intent && !input.intent.matched) {
    const intent = input.intent.intent;
    anomalies.push({
      type: 'intent_mismatch',
      action: config.intentMismatch.action,
      intentId: intent.id,
      details: {
        expectedAmount: intent.expectedAmount,
        actualAmount: amount,
        expectedMerchant: intent.expectedMerchant,
        actualMerchant: merchant?.name ?? '',
      },
    });
  }

  if (config.cooldownViolation.enabled && input.cooldownMinutes > 0 && state.lastSpendAt !== null) {
    const sinceMs = now - state.lastSpendAt;
    if (sinceMs < input.cooldownMinutes * MINUTE_MS) {
      anomalies.push({
        type: 'cooldown',
        action: config.cooldownViolation.action,
        details: {
          cooldownMinutes: input.cooldownMinutes,
          lastTransactionAt: state.lastSpendAt,
          timeSinceLastMinutes: round2(sinceMs / MINUTE_MS),
        },
      });
    }
  }

  if (config.merchantDrift.enabled && merchant && input.card.usage === 'multi') {
    const pinned = pinnedMerchant(input.card, state);
    if (pinned && normalizeName(pinned.name) !== normalizeName(merchant.name)) {
      anomalies.push({
        type: 'merchant_drift',
        action: config.merchantDrift.action,
        details: {
          pinnedMerchant: pinned.name,
          actualMerchant: merchant.name,
          pinnedMcc: pinned.mcc ?? null,
          actualMcc: merchant.mcc ?? null,
        },
      });
    }
  }

  return anomalies;
}
