// The SDK and `createMockServer().handle` inside workerd, Cloudflare's runtime, through Miniflare: the scenario is
// bundled as a Worker with the export conditions Wrangler uses (`workerd`, `worker`, `browser`), so the Web Crypto
// builds are the ones that run and the synchronous webhook forms must refuse.
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedInProcessSteps } from '../scenarios/scenario.ts';
import { runtimeTestsDir } from '../support/runtimes.ts';

describe('workerd (Miniflare)', () => {
  let miniflare: Miniflare | undefined;
  afterAll(async () => {
    await miniflare?.dispose();
  });

  it('runs the SDK against the mock in-process in a Worker, and verifies the webhook with Web Crypto', async () => {
    const bundle = await build({
      entryPoints: [join(runtimeTestsDir, 'scenarios', 'worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(bundle.metafile.inputs);
    // The Web Crypto build of the SDK, and no node:crypto build, went into the Worker.
    expect(inputs.filter((input) => /sdk\/dist\/.*\.node\./.test(input))).toEqual([]);
    expect(inputs.some((input) => /sdk\/dist\/webhooks\.mjs$/.test(input) || /sdk\/dist\/index\.mjs$/.test(input))).toBe(true);

    miniflare = new Miniflare({ modules: true, script: bundle.outputFiles[0]?.text ?? '', compatibilityDate: '2026-07-01' });
    const response = await miniflare.dispatchFetch('http://worker.test/');
    const answer = (await response.json()) as { steps?: string[]; error?: string };
    expect(answer.error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(answer.steps).toEqual(expectedInProcessSteps('unavailable'));
  });
});
