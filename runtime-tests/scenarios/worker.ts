// The scenario as a Cloudflare Worker (bundled by the workerd test with the `workerd`/`worker`/`browser` export
// conditions, as Wrangler does): every request runs the in-process steps and answers their names as JSON.
import { createMockServer } from '@cardrail/mock-server';
import * as sdk from '@cardrail/sdk';
import { inProcessSteps } from './scenario.ts';

export default {
  async fetch(): Promise<Response> {
    try {
      // Workers have no synchronous HMAC (Web Crypto build): the sync webhook forms must refuse.
      return Response.json({ steps: await inProcessSteps(sdk, createMockServer, 'unavailable') });
    } catch (error) {
      return Response.json({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, { status: 500 });
    }
  },
};
