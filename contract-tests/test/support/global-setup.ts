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

/**
 * Why this run is not the whole suite (some test files or tests filtered out), or undefined for a full run. A partial
 * run must not overwrite coverage.md: it would report as never exercised what the files left out cover.
 */
async function partialRun(project: TestProject): Promise<string | undefined> {
  if (project.vitest.config.testNamePattern) return `tests filtered by name (${String(project.vitest.config.testNamePattern)})`;
  const ran = new Set(project.vitest.state.getFiles().map((file) => file.filepath));
  const { testFiles } = await project.globTestFiles();
  const left = testFiles.filter((file) => !ran.has(file));
  return left.length > 0 ? `${left.length} of ${testFiles.length} test files not run` : undefined;
}

/** Gives every suite a directory for its coverage JSON, then merges them into contract-tests/coverage.md. */
export default function setup(project: TestProject): () => Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-coverage-'));
  project.provide('coverageDir', dir);
  return async () => {
    try {
      const suites = readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as CoverageData);
      const partial = await partialRun(project);
      if (partial) {
        console.log(`contract-tests: coverage.md left unchanged, this is a partial run: ${partial}.`);
      } else if (suites.length > 0) {
        const target = new URL('../../coverage.md', import.meta.url);
        // The run's time goes to the console, not the file: coverage.md changes only when coverage does.
        writeFileSync(target, renderCoverageMarkdown(suites, loadSpecs()));
        console.log(`contract-tests: coverage.md written after ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
