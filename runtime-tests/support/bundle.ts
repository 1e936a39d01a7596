// esbuild's bundle of a page for browsers, kept in memory: what a browser test serves, and what a test that checks a
// bundle's contents (no Node built-in, what sits in which chunk) reads. Nothing here starts a browser.
import { build, type BuildOptions, type Metafile, type OutputFile } from 'esbuild';

/** The folder the output files are named under (nothing is written): each output's path starts with it. */
export const BUNDLE_DIR = '/bundle';

/** esbuild's options but where the output goes, which stays in memory under BUNDLE_DIR, with its metafile. */
export type BrowserBuildOptions = Omit<BuildOptions, 'write' | 'metafile' | 'outdir'>;

export interface BrowserBundle {
  outputFiles: OutputFile[];
  metafile: Metafile;
}

/**
 * Bundles for browsers with esbuild: ES modules, minified, split so that dynamic imports become chunks a page loads
 * when needed. `options` name what to bundle (`entryPoints`, or `stdin` for a module written in the test) and may
 * change any other setting.
 */
export async function bundleForBrowser(options: BrowserBuildOptions): Promise<BrowserBundle> {
  const result = await build({
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
    ...options,
    write: false,
    metafile: true,
    outdir: BUNDLE_DIR,
  });
  return { outputFiles: result.outputFiles, metafile: result.metafile };
}
