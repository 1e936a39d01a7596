import { APIResource } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { RiskConfig, RiskConfigUpdateParams } from '../generated/api-names.js';
import type { VariantPaths } from './variant-paths.js';

/** Risk engine configuration (tag `risk`): presets, rules and the action taken on an anomaly. */
export class RiskSettings<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's risk configuration: the preset, its rules and the action taken on an anomaly. */
  retrieve(options?: RequestOptions): APIPromise<RiskConfig> {
    return this.send('get', '/settings/risk', {}, options);
  }

  /** Changing any rule turns the preset into `custom`. */
  update(params: RiskConfigUpdateParams, options?: RequestOptions): APIPromise<RiskConfig> {
    return this.send('patch', '/settings/risk', { body: params }, options);
  }
}

/** Organization settings; `settings.risk` for now. */
export class Settings<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Risk engine configuration. */
  readonly risk = new RiskSettings(this.core);
}
