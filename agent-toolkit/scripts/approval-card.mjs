// Builds the MCP App approval card into the one HTML document its UI resource serves (`text/html;profile=mcp-app`):
// the view's TypeScript bundled and minified by esbuild, and its stylesheet, both inline (a host loads the resource
// as it is, with no server to fetch files from). The toolkit's build (tsdown) and its tests (vitest) take it in through
// the same plugin, as the default export of `virtual:cardrail/approval-card.html`.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const VIEW = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'mcp', 'apps', 'view');
/** The module id the server's source imports the card's HTML by. */
export const APPROVAL_CARD_MODULE = 'virtual:cardrail/approval-card.html';

/** The card as one HTML document. */
export async function buildApprovalCardHtml() {
  const [template, css, bundled] = await Promise.all([
    readFile(join(VIEW, 'approval-card.html'), 'utf8'),
    readFile(join(VIEW, 'card.css'), 'utf8'),
    build({
      entryPoints: [join(VIEW, 'main.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome110', 'firefox115', 'safari16'],
      minify: true,
      write: false,
      legalComments: 'none',
      logLevel: 'warning',
    }),
  ]);
  const script = new TextDecoder().decode(bundled.outputFiles[0].contents).trim();
  // Inline, `</script` would end the element early wherever it appears (a string, a regular expression).
  const inlineScript = script.replaceAll('</script', '<\\/script');
  const style = (
    await build({ stdin: { contents: css, loader: 'css' }, minify: true, write: false, logLevel: 'warning' })
  ).outputFiles[0].text.trim();
  if (!template.includes('/* card.css */') || !template.includes('/* main.js */')) {
    throw new Error('approval-card.html lost its /* card.css */ or /* main.js */ placeholder');
  }
  // Functions as replacements: `$&` or `$'` in the bundle must stay as they are.
  return template.replace('/* card.css */', () => style).replace('/* main.js */', () => inlineScript);
}

/**
 * A rollup-style plugin (tsdown's rolldown, vitest's vite) that answers `virtual:cardrail/approval-card.html` with
 * the card's HTML as its default export, built when first imported.
 */
export function approvalCardPlugin() {
  const resolved = `\0${APPROVAL_CARD_MODULE}`;
  return {
    name: 'cardrail-approval-card',
    resolveId(source) {
      return source === APPROVAL_CARD_MODULE ? resolved : null;
    },
    async load(id) {
      if (id !== resolved) return null;
      return `export default ${JSON.stringify(await buildApprovalCardHtml())};\n`;
    },
  };
}
