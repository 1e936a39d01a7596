// A real headless Chromium with nothing installed on the system: the binary ships inside the npm package
// @sparticuz/chromium and playwright-core drives it.
//
// A stand-in, named to be replaced: this follows the browser harness of the runtimes work (runtime-tests/support/
// browser.ts: the same packages, versions and dropped flags), which had not reached main when these tests were
// written. Once it has, import `launchChromium` from there and delete this file.
import sparticuz from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/**
 * Launch flags of @sparticuz/chromium's defaults that a browser test must not keep. The first two switch off the
 * same-origin policy and mixed-content blocking, which would make the page's Content-Security-Policy and origin
 * checks meaningless; the last two suit a serverless function, not a browser that runs pages in their own processes.
 */
const DROPPED_CHROMIUM_FLAGS = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
  '--no-zygote',
]);

/** The package's default flags minus the dropped ones (a flag is matched by its name, before any `=`). */
export function chromiumLaunchFlags(defaults: readonly string[] = sparticuz.args): string[] {
  return defaults.filter((flag) => !DROPPED_CHROMIUM_FLAGS.has(flag.split('=')[0] ?? flag));
}

/**
 * Starts headless Chromium. The first launch on a machine unpacks the binary into the temporary folder (a few
 * seconds); a missing or broken package fails here with the reason, never by skipping.
 */
export async function launchChromium(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await sparticuz.executablePath();
  } catch (error) {
    throw new Error(`Chromium could not be unpacked from the npm package @sparticuz/chromium (run \`npm ci\`): ${String(error)}`);
  }
  return chromium.launch({ executablePath, args: chromiumLaunchFlags(), headless: true, timeout: 120_000 });
}
