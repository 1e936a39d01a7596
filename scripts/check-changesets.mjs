#!/usr/bin/env node
// The changeset gate of `npm test`: every pending changeset in .changeset/ parses, names only packages a release
// publishes (a workspace package that is neither private nor ignored by .changeset/config.json) with a bump type
// changesets knows, and says what changed; then it prints the release plan `npm run release` would apply.
//
// It uses changesets' own parser, config reader and release planner (resolved through @changesets/cli, which
// depends on them), but never git: `changeset status` needs a local `main` branch to diff against, which a clone of
// another branch or a shallow CI checkout does not have. `--cwd <dir>` checks another repository (the tests do).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const { values } = parseArgs({ options: { cwd: { type: 'string' } } });
const root = resolve(values.cwd ?? join(fileURLToPath(import.meta.url), '../..'));

// changesets 3's packages are ES modules; Node 22.12+ (the project runs on 24) loads them with require().
const requireHere = createRequire(import.meta.url);
const requireFromCli = createRequire(requireHere.resolve('@changesets/cli/package.json'));
const { parseChangesetFile } = requireFromCli('@changesets/parse');
const { getPackages } = requireFromCli('@manypkg/get-packages');
const { readConfig } = requireFromCli('@changesets/config');
const { readPreState } = requireFromCli('@changesets/pre');
const { readChangesets } = requireFromCli('@changesets/read');
const { assembleReleasePlan } = requireFromCli('@changesets/assemble-release-plan');

const BUMP_TYPES = ['major', 'minor', 'patch', 'none'];
const problems = [];
const firstLine = (error) => String(error instanceof Error ? error.message : error).split('\n')[0];

const packages = await getPackages(root);
const byName = new Map(packages.packages.map((pkg) => [pkg.packageJson.name, pkg.packageJson]));
const publishable = [...byName.values()].filter((pkg) => !pkg.private).map((pkg) => pkg.name);

let config;
try {
  const read = await readConfig(packages.rootDir, packages);
  config = read.config;
  for (const error of read.errors ?? []) problems.push(`.changeset/config.json: ${error}`);
} catch (error) {
  problems.push(`.changeset/config.json: ${String(error instanceof Error ? error.message : error)}`);
}
// changesets 3 reads `ignore` as globs and drops a name that matches nothing; a misspelt name is refused here instead.
try {
  const written = JSON.parse(readFileSync(join(root, '.changeset', 'config.json'), 'utf8'));
  for (const name of written.ignore ?? []) {
    if (!/[*?[\]{}!]/.test(name) && !byName.has(name)) {
      problems.push(`.changeset/config.json: "ignore" names ${name}, which is not a package of this repository.`);
    }
  }
} catch {
  // No readable config: readConfig above has said so.
}
const ignored = new Set(config?.ignore ?? []);

// The same files changesets reads: every *.md of .changeset/ but its README.
const changesetDir = join(root, '.changeset');
const files = readdirSync(changesetDir)
  .filter((file) => file.endsWith('.md') && !file.startsWith('.') && !/^README\.md$/i.test(file))
  .sort();

for (const file of files) {
  const where = `.changeset/${file}`;
  let changeset;
  try {
    changeset = parseChangesetFile(readFileSync(join(changesetDir, file), 'utf8'));
  } catch (error) {
    problems.push(`${where}: ${firstLine(error)}`);
    continue;
  }
  if (changeset.releases.length === 0) problems.push(`${where}: its front matter names no package.`);
  for (const { name, type } of changeset.releases) {
    const pkg = byName.get(name);
    if (!pkg) {
      problems.push(`${where}: "${name}" is not a package of this repository (published: ${publishable.join(', ')}).`);
    } else if (pkg.private) {
      problems.push(`${where}: "${name}" is private and never published; name a published package instead.`);
    } else if (ignored.has(name)) {
      problems.push(`${where}: "${name}" is ignored by .changeset/config.json, so no release would carry this change.`);
    }
    if (!BUMP_TYPES.includes(type)) problems.push(`${where}: "${type}" is not a bump type (${BUMP_TYPES.join(', ')}).`);
  }
  if (changeset.summary.trim() === '') {
    problems.push(`${where}: no summary; below the front matter, say what changed for users of the package.`);
  }
}

let plan;
if (problems.length === 0) {
  try {
    // What `changeset status` computes, without its git diff against a base branch.
    const [changesets, preState] = await Promise.all([readChangesets(packages.rootDir), readPreState(packages.rootDir)]);
    plan = assembleReleasePlan(changesets, packages, config, preState);
  } catch (error) {
    problems.push(`release plan: ${firstLine(error)}`);
  }
}

if (problems.length > 0) {
  console.error(`Changesets: ${problems.length} problem${problems.length === 1 ? '' : 's'} in .changeset/:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  console.error('Fix or remove these files; `npx changeset` writes a valid changeset.');
  process.exit(1);
}

const releases = plan.releases.filter((release) => release.type !== 'none');
if (files.length === 0) {
  console.log('Changesets: none pending; `npm run release` has nothing to release.');
} else {
  const list = releases.map((r) => `${r.name} ${r.oldVersion} -> ${r.newVersion} (${r.type})`).join(', ');
  console.log(`Changesets: ${files.length} pending, valid. \`npm run release\` would release ${list || 'nothing'}.`);
}
