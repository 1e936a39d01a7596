import type { ApiSchemas } from '../../core/stored.js';
import type { AnomalyAction } from '../types.js';

type ToggleRule = ApiSchemas['ToggleRule'];

/** The risk settings of one organization and mode, exactly as `GET /settings/risk` answers them. */
export type RiskConfig = ApiSchemas['RiskConfig'];

export type PresetName = Exclude<RiskConfig['preset'], 'custom'>;

const RULE_NAMES = [
  'duplicateDetection',
  'velocityLimit',
  'spendSpike',
  'unattestedSpend',
  'intentMismatch',
  'cooldownViolation',
  'merchantDrift',
] as const;
type RuleName = (typeof RULE_NAMES)[number];

export type RiskConfigUpdate = { preset?: PresetName; dryRun?: boolean } & {
  [K in RuleName]?: Partial<RiskConfig[K]>;
};

function preset(
  name: PresetName,
  enabled: (rule: RuleName) => boolean,
  action: AnomalyAction,
  windows: { duplicate: number; perHour: number; perDay: number; multiplier: number; spikeWindow: number; baselineDays: number },
): RiskConfig {
  const toggle = (rule: RuleName): ToggleRule => ({ enabled: enabled(rule), action });
  return {
    object: 'riskConfig',
    preset: name,
    dryRun: false,
    duplicateDetection: { ...toggle('duplicateDetection'), windowMinutes: windows.duplicate },
    velocityLimit: { ...toggle('velocityLimit'), maxPerHour: windows.perHour, maxPerDay: windows.perDay },
    spendSpike: {
      ...toggle('spendSpike'),
      multiplier: windows.multiplier,
      windowMinutes: windows.spikeWindow,
      baselineDays: windows.baselineDays,
    },
    unattestedSpend: toggle('unattestedSpend'),
    intentMismatch: toggle('intentMismatch'),
    cooldownViolation: toggle('cooldownViolation'),
    merchantDrift: toggle('merchantDrift'),
  };
}

const STANDARD_WINDOWS = { duplicate: 10, perHour: 10, perDay: 50, multiplier: 3, spikeWindow: 60, baselineDays: 7 };

/**
 * The presets (docs/risk.md#presets): `permissive` all rules off; `moderate` duplicate and velocity on with `alert`;
 * `strict` all on with `freeze_card`; `paranoid` all on with `suspend_agent` and tighter windows.
 */
export function presetConfig(name: PresetName): RiskConfig {
  switch (name) {
    case 'permissive':
      return preset(name, () => false, 'alert', STANDARD_WINDOWS);
    case 'moderate':
      return preset(name, (rule) => rule === 'duplicateDetection' || rule === 'velocityLimit', 'alert', STANDARD_WINDOWS);
    case 'strict':
      return preset(name, () => true, 'freeze_card', {
        duplicate: 30,
        perHour: 5,
        perDay: 25,
        multiplier: 3,
        spikeWindow: 60,
        baselineDays: 7,
      });
    case 'paranoid':
      return preset(name, () => true, 'suspend_agent', {
        duplicate: 60,
        perHour: 3,
        perDay: 10,
        multiplier: 2,
        spikeWindow: 30,
        baselineDays: 14,
      });
  }
}

/** A new organization's risk settings: the `moderate` preset, which only ever alerts. */
export function defaultRiskConfig(): RiskConfig {
  return presetConfig('moderate');
}

/**
 * Applies a PATCH: `preset` first replaces every rule, then the body's own fields apply. When the result's rules
 * differ from the named (or current) preset's, the preset becomes `custom`; `dryRun` is not a rule.
 */
export function applyRiskUpdate(current: RiskConfig, update: RiskConfigUpdate): RiskConfig {
  const base: RiskConfig = update.preset ? { ...presetConfig(update.preset), dryRun: current.dryRun } : structuredClone(current);
  const next: RiskConfig = structuredClone(base);
  if (update.dryRun !== undefined) next.dryRun = update.dryRun;
  for (const rule of RULE_NAMES) {
    const patch = update[rule];
    if (patch) Object.assign(next[rule], patch);
  }
  const changed = RULE_NAMES.some((rule) => JSON.stringify(next[rule]) !== JSON.stringify(base[rule]));
  if (changed) next.preset = 'custom';
  return next;
}
