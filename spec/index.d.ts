/**
 * The types of both API variants, generated from the bundled documents by openapi-typescript (`npm run generate`):
 * `paths`, `operations`, `components` and `webhooks` of each. The SDK and the mock server take every request,
 * response, resource and event type from here.
 */
export type * as CustomerApi from './generated/customer.js';
export type * as UserApi from './generated/user.js';
