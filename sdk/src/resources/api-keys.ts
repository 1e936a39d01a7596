import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

/** API keys of the organization and mode. */
export class ApiKeys<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Creates a key; the response carries the secret key, shown only here. */
  readonly create = this.callWithBody('post', '/api-keys');

  /** A page of the organization's keys of this mode, redacted. */
  readonly list = this.paged('/api-keys');

  /** Revokes a key: requests made with it are 401 at once. */
  readonly revoke = this.call('delete', '/api-keys/{keyId}', (keyId: string) => ({ keyId }));
}
