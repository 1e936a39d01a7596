import { APIResource } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type {
  SpendEvaluateParams,
  SpendEvaluation,
  UserSpendEvaluateParams,
  UserSpendEvaluation,
} from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** Spend decisions without spending: what the policy and the risk engine would decide. */
export class Spend<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A dry run of an authorization: the same rules and reason codes, no state change. */
  evaluate(
    params: ByVariant<Paths, SpendEvaluateParams, UserSpendEvaluateParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, SpendEvaluation, UserSpendEvaluation>> {
    return this.send('post', '/spend/evaluate', { body: params }, options);
  }
}
