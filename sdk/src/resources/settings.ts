import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, Operation as Op, ResponseBody } from '../core/operation-types.js';
import type { VariantPaths } from './variant-paths.js';

/** Risk engine configuration (tag `risk`): presets, rules and the action taken on an anomaly. */
export class RiskSettings<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The organization's risk configuration: the preset, its rules and the action taken on an anomaly. */
  retrieve(options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/settings/risk', 'get'>>> {
    return this.request('get', '/settings/risk', {}, options);
  }

  /** Changing any rule turns the preset into `custom`. */
  update(
    ...[body, options]: BodyArgs<Op<Paths, '/settings/risk', 'patch'>>
  ): APIPromise<ResponseBody<Op<Paths, '/settings/risk', 'patch'>>> {
    return this.request('patch', '/settings/risk', { body }, options);
  }
}

/** Organization settings; `settings.risk` for now. */
export class Settings<Paths extends VariantPaths> {
  /** Risk engine configuration. */
  readonly risk: RiskSettings<Paths>;

  constructor(core: ClientCore<Paths>) {
    this.risk = new RiskSettings(core);
  }
}
