import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every entry of a directory and the SHA-256 of each file's bytes: what an inspection or a refused start must leave as
 * it found it (a file created, removed or changed by a single byte shows).
 */
export function fingerprint(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const path = join(dir, name);
      return [name, statSync(path).isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'not a file'];
    }),
  );
}
