// Bundles one variant's root document (and the files it references) into a single OpenAPI document with Redocly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEventTypeReferences } from './event-type-references.mjs';
import { applyUserVariantNames } from './user-variant-names.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const variants = ['customer', 'user'];

export function bundle(variant) {
  const work = mkdtempSync(join(tmpdir(), 'cardrail-bundle-'));
  const out = join(work, `${variant}.json`);
  try {
    execFileSync(
      join(repoRoot, 'node_modules/.bin/redocly'),
      ['bundle', join(repoRoot, 'spec', `${variant}.yaml`), '--output', out, '--ext', 'json'],
      {
        cwd: join(repoRoot, 'spec'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const document = applyEventTypeReferences(JSON.parse(readFileSync(out, 'utf8')));
    return variant === 'user' ? applyUserVariantNames(document) : document;
  } catch (error) {
    process.stderr.write(String(error.stderr ?? error));
    throw new Error(`bundling spec/${variant}.yaml failed`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
