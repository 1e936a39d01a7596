import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

/** Risk engine configuration (tag `risk`): presets, rules and the action taken on an anomaly. */
export class RiskSettings<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's risk configuration: the preset, its rules and the action taken on an anomaly. */
  readonly retrieve = this.call('get', '/settings/risk');

  /** Changing any rule turns the preset into `custom`. */
  readonly update = this.callWithBody('patch', '/settings/risk');
}

/** Organization settings; `settings.risk` for now. */
export class Settings<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Risk engine configuration. */
  readonly risk = new RiskSettings(this.core);
}
