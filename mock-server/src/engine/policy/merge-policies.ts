import type { Policy, PolicyLimits } from '../types.js';

/**
 * Merges policies from the outermost (customer) to the innermost (card) layer. The most restrictive value wins
 * (docs/policy.md#inheritance): limits, `autoApproveBelow`, attestation window and TTL take the smallest,
 * `cooldownMinutes` the largest, allow-lists intersect, `blockedMccs` unite, booleans are true when any layer says so,
 * `onDrift: freeze` beats `allow` and `ttlAction: close` beats `freeze`.
 */
export function mergePolicies(...layers: (Policy | null | undefined)[]): Policy {
  const merged: Policy = {};
  for (const layer of layers) {
    if (!layer) continue;
    orTrue(merged, layer, 'requireIntent');
    orTrue(merged, layer, 'requireAttestation');
    orTrue(merged, layer, 'requireApproval');
    orTrue(merged, layer, 'requireMandate');
    orTrue(merged, layer, 'lockToFirstMerchant');
    smallest(merged, layer, 'autoApproveBelow');
    smallest(merged, layer, 'attestationWindowMinutes');
    smallest(merged, layer, 'ttlMinutes');
    smallest(merged, layer, 'ttlDays');
    if (layer.cooldownMinutes !== undefined) {
      merged.cooldownMinutes = Math.max(merged.cooldownMinutes ?? 0, layer.cooldownMinutes);
    }
    if (layer.limits) merged.limits = mergeLimits(merged.limits, layer.limits);
    if (layer.allowedMccs) merged.allowedMccs = intersect(merged.allowedMccs, layer.allowedMccs);
    if (layer.allowedMerchants) {
      merged.allowedMerchants = intersect(merged.allowedMerchants, layer.allowedMerchants, normalizeName);
    }
    if (layer.blockedMccs) merged.blockedMccs = unite(merged.blockedMccs, layer.blockedMccs);
    if (layer.onDrift) merged.onDrift = merged.onDrift === 'freeze' ? 'freeze' : layer.onDrift;
    if (layer.ttlAction) merged.ttlAction = merged.ttlAction === 'close' ? 'close' : layer.ttlAction;
  }
  return merged;
}

function mergeLimits(a: PolicyLimits | undefined, b: PolicyLimits): PolicyLimits {
  const out: PolicyLimits = { ...a };
  for (const key of ['perAuth', 'perDay', 'perMonth'] as const) {
    const value = b[key];
    if (value === undefined) continue;
    const current = out[key];
    out[key] = current === undefined ? value : Math.min(current, value);
  }
  return out;
}

/** Merchant names compare case-insensitively and ignoring surrounding space. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

function orTrue(
  target: Policy,
  layer: Policy,
  key: 'requireIntent' | 'requireAttestation' | 'requireApproval' | 'requireMandate' | 'lockToFirstMerchant',
): void {
  const value = layer[key];
  if (value === undefined) return;
  target[key] = target[key] === true || value;
}

function smallest(
  target: Policy,
  layer: Policy,
  key: 'autoApproveBelow' | 'attestationWindowMinutes' | 'ttlMinutes' | 'ttlDays',
): void {
  const value = layer[key];
  if (value === undefined) return;
  const current = target[key];
  target[key] = current === undefined ? value : Math.min(current, value);
}

function intersect(current: string[] | undefined, next: string[], key: (value: string) => string = (v) => v): string[] {
  if (current === undefined) return [...new Set(next)];
  const allowed = new Set(next.map(key));
  return current.filter((value) => allowed.has(key(value)));
}

function unite(current: string[] | undefined, next: string[]): string[] {
  return [...new Set([...(current ?? []), ...next])];
}
