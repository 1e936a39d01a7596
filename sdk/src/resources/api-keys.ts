import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { ApiKey, ApiKeyCreateParams, ApiKeyListParams, ApiKeyWithSecret } from '../generated/api-names.js';
import type { VariantPaths } from './variant-paths.js';

/** API keys of the organization and mode. */
export class ApiKeys<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Creates a key; the response carries the secret key, shown only here. */
  create(params?: ApiKeyCreateParams, options?: RequestOptions): APIPromise<ApiKeyWithSecret> {
    return this.send('post', '/api-keys', { body: params }, options);
  }

  /** A page of the organization's keys of this mode, redacted. */
  list(query?: ApiKeyListParams, options?: RequestOptions): PagePromise<ApiKey> {
    return this.sendPage('/api-keys', { query: queryOf(query) }, options);
  }

  /** Revokes a key: requests made with it are 401 at once. */
  revoke(keyId: string, options?: RequestOptions): APIPromise<ApiKey> {
    return this.send('delete', '/api-keys/{keyId}', { path: { keyId } }, options);
  }
}
