import { ConnectionDropped } from '../core/faults.js';
import type { Dispatch } from './app.js';
import { toWebResponse } from './response.js';

/**
 * The mock's `handle`: a web Request in, a web Response out. A connection a fault drops rejects as fetch does on a
 * network error (a TypeError), or with the client's own abort reason when it gave up first.
 */
export function webHandler(dispatch: Dispatch): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return toWebResponse(await dispatch(request), request.method);
    } catch (error) {
      if (!(error instanceof ConnectionDropped)) throw error;
      throw request.signal.aborted ? request.signal.reason : new TypeError('fetch failed', { cause: error });
    }
  };
}
