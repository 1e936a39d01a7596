import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { CoverageData } from '../../src/coverage.js';
import { renderCoverageMarkdown } from '../../src/coverage-report.js';
import { loadSpecs } from '../../src/spec.js';

declare module 'vitest' {
  export interface ProvidedContext {
    coverageDir: string;
  }
}

/** Gives every suite a directory for its coverage JSON, then merges them into contract-tests/coverage.md. */
export default function setup(project: TestProject): () => void {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-coverage-'));
  project.provide('coverageDir', dir);
  return () => {
    const suites = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as CoverageData);
    if (suites.length > 0) {
      const target = new URL('../../coverage.md', import.meta.url);
      writeFileSync(target, renderCoverageMarkdown(suites, loadSpecs(), (Date.now() - started) / 1000));
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
