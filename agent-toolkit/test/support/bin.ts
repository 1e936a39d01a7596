import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built bin, as `npx cardrail-mcp` runs it. The root `npm test` builds every workspace before testing. */
export const BIN = fileURLToPath(new URL('../../dist/bin/cardrail-mcp.mjs', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: run \`npm run build\` in agent-toolkit/ (the root \`npm test\` does) first.`);
}
