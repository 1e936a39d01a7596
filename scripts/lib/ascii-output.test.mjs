// The ASCII output of the builds (ascii-output.mjs): escaped code means what it meant. Run with `npm run test:scripts`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiOnly, asciiOutput } from './ascii-output.mjs';

/** The value of a JavaScript expression, as source text. */
const evaluated = (source) => new Function(`return (${source});`)();

test('strings, templates and identifiers keep their characters', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, which the test evaluates
  const source = "[`Card •••• ${1 + 1}`, 'em — dash', \"😀\", ((café) => café)('ok')]";
  const escaped = asciiOnly(source);
  assert.doesNotMatch(escaped, /[\u0080-\uffff]/);
  assert.deepEqual(evaluated(escaped), evaluated(source));
});

test('regular expressions match what they matched, with and without the u flag', () => {
  for (const [pattern, subject] of [
    ['/^[é]$/', 'é'],
    ['/^[é]$/u', 'é'],
    ['/^😀$/u', '😀'],
    ['/^[😀]$/u', '😀'],
    ['/^😀$/', '😀'],
  ]) {
    const escaped = asciiOnly(pattern);
    assert.doesNotMatch(escaped, /[\u0080-\uffff]/);
    assert.equal(evaluated(escaped).test(subject), true, `${pattern} -> ${escaped}`);
  }
});

test('a backslash before the character: an escape of it is replaced, escaped backslashes are kept', () => {
  assert.equal(evaluated(asciiOnly("'\\•'")), '•');
  assert.equal(evaluated(asciiOnly("'\\\\•'")), '\\•');
  assert.equal(evaluated(asciiOnly("'\\\\\\•'")), '\\•');
});

test('the plugin rewrites JavaScript chunks with non-ASCII text, and leaves ASCII ones, declarations and assets alone', () => {
  const bundle = {
    'a.cjs': { type: 'chunk', fileName: 'a.cjs', code: 'const a = "…";\n' },
    'b.mjs': { type: 'chunk', fileName: 'b.mjs', code: 'const b = 1;\n' },
    'a.d.mts': { type: 'chunk', fileName: 'a.d.mts', code: '/** Wait… */\n' },
    'page.html': { type: 'asset', fileName: 'page.html', source: '<p>…</p>' },
  };
  asciiOutput().generateBundle.handler({}, bundle);
  assert.equal(bundle['a.cjs'].code, 'const a = "\\u2026";\n');
  assert.equal(bundle['b.mjs'].code, 'const b = 1;\n');
  assert.equal(bundle['a.d.mts'].code, '/** Wait… */\n');
  assert.equal(bundle['page.html'].source, '<p>…</p>');
});
