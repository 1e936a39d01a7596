// What each tarball holds: the files its manifest points at, its licence, and no import a user's install cannot
// satisfy (a private workspace such as @cardrail/spec, or a package missing from `dependencies`).
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { consumerDir, installedManifest, packed } from '../support/consumer.js';

const repoLicense = readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8');

/** Every file path a manifest field names (exports at any depth, main, module, types, bin, typesVersions). */
function manifestTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  for (const field of ['exports', 'main', 'module', 'types', 'bin', 'typesVersions']) walk(manifest[field]);
  return [...new Set(targets)].filter((target) => target !== 'package.json');
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for a relative one. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const SPECIFIERS = [
  /\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  /^\s*import\s*["']([^"']+)["']/gm,
];

/** The file's code without comments, as esbuild prints it back (declaration files are read as they are). */
function withoutComments(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (/\.d\.(c|m)?ts$/.test(file)) return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return transformSync(text, { loader: 'js', legalComments: 'none' }).code;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file));
}

describe.each(packed)('the $name tarball', ({ name, files }) => {
  const paths = new Set(files.map((file) => file.path));
  const manifest = installedManifest(name);

  it('has the LICENSE (MIT, Copyright (c) 2026 Cardrail), the README and the manifest', () => {
    expect([...paths].filter((path) => !path.includes('/')).sort()).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json']),
    );
    expect(readFileSync(join(consumerDir, 'node_modules', name, 'LICENSE'), 'utf8')).toBe(repoLicense);
  });

  it('has every file its manifest points at (exports, main, types, bin)', () => {
    const targets = manifestTargets(manifest);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !paths.has(target))).toEqual([]);
  });

  it('imports nothing but Node built-ins, itself and its declared dependencies', () => {
    const declared = new Set([
      name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const builtins = new Set(builtinModules);
    const undeclared = new Set<string>();
    const code = filesUnder(join(consumerDir, 'node_modules', name, 'dist')).filter((file) => /\.(c|m)?(js|ts)$/.test(file));
    expect(code.length).toBeGreaterThan(0);
    for (const file of code) {
      // Without comments: a bundled package's doc comments quote its own imports (`import { sha256 } from ...`).
      const text = withoutComments(file);
      for (const pattern of SPECIFIERS) {
        for (const [, specifier = ''] of text.matchAll(pattern)) {
          const pkg = packageOf(specifier);
          if (pkg && !declared.has(pkg) && !specifier.startsWith('node:') && !builtins.has(pkg))
            undeclared.add(`${pkg} (${file.slice(consumerDir.length + 1)})`);
        }
      }
    }
    expect([...undeclared]).toEqual([]);
  });
});

/** `^a.b.c`: the same left-most non-zero part, and not older. */
function satisfiesCaret(version: string, range: string): boolean {
  const have = version.split('.').map(Number);
  const want = range.slice(1).split('.').map(Number);
  const fixed = want.findIndex((part) => part !== 0);
  const same =
    have.slice(0, (fixed === -1 ? 2 : fixed) + 1).join('.') === want.slice(0, (fixed === -1 ? 2 : fixed) + 1).join('.');
  const notOlder = have.join('.').localeCompare(want.join('.'), undefined, { numeric: true }) >= 0;
  return same && notOlder;
}

describe('dependencies between the packages', () => {
  it('are caret ranges that the packed versions satisfy', () => {
    const versions = new Map(packed.map(({ name, version }) => [name, version]));
    const internal = packed.flatMap(({ name }) =>
      Object.entries(installedManifest(name).dependencies ?? {})
        .filter(([dependency]) => versions.has(dependency))
        .map(([dependency, range]) => ({ name, dependency, range })),
    );
    expect(internal.map(({ name, dependency }) => `${name} -> ${dependency}`)).toEqual(
      expect.arrayContaining(['@cardrail/mock-server -> @cardrail/sdk', '@cardrail/agent-toolkit -> @cardrail/sdk']),
    );
    for (const { dependency, range } of internal) {
      expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(satisfiesCaret(versions.get(dependency) ?? '', range)).toBe(true);
    }
  });
});
