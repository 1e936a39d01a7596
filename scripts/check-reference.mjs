#!/usr/bin/env node
// The API reference as a reader gets it (`npm run docs`, typedoc.json): built into a temporary directory with every
// validation of typedoc.json (warnings are errors), then checked for what makes it readable: at most 10 MB in all, no
// page over 1 MB (a 13 MB page once took 18 s to open), `cards.create` listing the fields of its parameter, no JSDoc
// tag shown as text, and no description printed twice in a row.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_TOTAL_BYTES = 10 * 1024 * 1024;
const MAX_PAGE_BYTES = 1024 * 1024;
/** Fields of `CardCreateParams` that the `cards.create` section must show (some required, some optional). */
const CARD_CREATE_FIELDS = ['customerId', 'agentId', 'usage', 'limits', 'policy'];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The text of an HTML page's section from `start` up to the next method's anchor, tags removed. */
function section(html, start) {
  const from = html.indexOf(`id="${start}"`);
  if (from === -1) return undefined;
  const next = html.indexOf('<section class="tsd-panel tsd-member', from + 1);
  return html.slice(from, next === -1 ? undefined : next).replace(/<[^>]*>/g, ' ');
}

/** Builds the reference into `out`; false when typedoc failed (it printed why). */
function build(out) {
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', out], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return true;
  } catch {
    return false;
  }
}

/** What makes the built reference hard to read, and its size. */
function problemsOf(out) {
  const problems = [];
  let total = 0;
  for (const file of files(out)) {
    const size = statSync(file).size;
    total += size;
    if (size > MAX_PAGE_BYTES)
      problems.push(`${relative(out, file)} is ${(size / 1e6).toFixed(2)} MB (the limit is 1 MB a page)`);
  }
  if (total > MAX_TOTAL_BYTES) problems.push(`the reference is ${(total / 1e6).toFixed(2)} MB (the limit is 10 MB)`);
  const cards = files(out).find((file) => /_cardrail_sdk\.Cards\.html$/.test(file));
  const create = cards && section(readFileSync(cards, 'utf8'), 'create');
  if (!create) problems.push("the reference has no page of the SDK's Cards with a `create` method");
  else {
    if (!/\bCardCreateParams\b/.test(create)) problems.push('cards.create does not name its parameter type CardCreateParams');
    const missing = CARD_CREATE_FIELDS.filter((field) => !new RegExp(`\\b${field}\\b`).test(create));
    if (missing.length > 0) problems.push(`cards.create does not show the fields ${missing.join(', ')} of its parameter`);
  }
  for (const file of files(out).filter((path) => path.endsWith('.html'))) {
    const html = readFileSync(file, 'utf8');
    const page = relative(out, file);
    problems.push(...leakedTags(page, html), ...repeatedDescriptions(page, html));
  }
  return { problems, total };
}

/** A page's text as a reader sees it: tags and entities removed, white space collapsed. */
function textOf(html) {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * JSDoc tags shown as text: a tag TypeDoc does not end a block at (openapi-typescript's `@enum {string}` after a
 * `@default` once read "Default virtual @ enum { string }"). Package names (`@cardrail/sdk`) are not tags.
 */
function leakedTags(page, html) {
  const match = /.{0,40}(?<![\w/.-])@ ?(enum|description|default|example|format|type|deprecated)\b.{0,20}/.exec(textOf(html));
  return match ? [`${page} shows a JSDoc tag as text: "${match[0].trim()}"`] : [];
}

/** A description block of TypeDoc's theme that holds no other block (a summary, not a list of tags). */
const DESCRIPTION = '<div class="tsd-comment tsd-typography">((?:(?!<div)[\\s\\S])*?)</div>';
const TWO_DESCRIPTIONS = new RegExp(`${DESCRIPTION}\\s*${DESCRIPTION}`, 'g');

/**
 * The same description printed twice in a row for one item: TypeDoc's theme once gave a parameter typed by an
 * `@expand` interface the interface's summary both as the parameter's description and above the interface's fields
 * ("The body of `POST /cards/{cardId}/credentials`" twice under `cards.credentials`). Equal descriptions of
 * different items (two fields' "Format: int32") are not repeats: each follows its own item.
 */
function repeatedDescriptions(page, html) {
  const repeats = [];
  for (const [, first, second] of html.matchAll(TWO_DESCRIPTIONS)) {
    const text = textOf(first);
    if (text !== '' && text === textOf(second))
      repeats.push(`${page} prints a description twice in a row: "${text.slice(0, 80)}"`);
  }
  return repeats;
}

const out = mkdtempSync(join(tmpdir(), 'cardrail-reference-'));
try {
  if (!build(out)) {
    console.error('typedoc failed: fix the warnings above (typedoc.json makes each an error), then run `npm run docs:check`');
    process.exitCode = 1;
  } else {
    const { problems, total } = problemsOf(out);
    if (problems.length > 0) {
      console.error(`The API reference is not readable as it should be:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      const count = files(out).length;
      console.log(
        `API reference: ${(total / 1e6).toFixed(1)} MB in ${count} files, no page over 1 MB; cards.create shows ${CARD_CREATE_FIELDS.join(', ')}`,
      );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
