import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

/** Spend decisions without spending: what the policy and the risk engine would decide. */
export class Spend<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A dry run of an authorization: the same rules and reason codes, no state change. */
  readonly evaluate = this.callWithBody('post', '/spend/evaluate');
}
