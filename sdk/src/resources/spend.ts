import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { BodyArgs, Operation as Op, ResponseBody } from '../core/operation-types.js';
import type { VariantPaths } from './variant-paths.js';

/** Spend decisions without spending: what the policy and the risk engine would decide. */
export class Spend<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A dry run of an authorization: the same rules and reason codes, no state change. */
  evaluate(
    ...[body, options]: BodyArgs<Op<Paths, '/spend/evaluate', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/spend/evaluate', 'post'>>> {
    return this.request('post', '/spend/evaluate', { body }, options);
  }
}
