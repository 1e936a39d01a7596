// A bundler plugin (rolldown, as tsdown runs it) that writes every JavaScript chunk in ASCII: each character past
// U+007F becomes its `\uXXXX` escape (a surrogate pair, two). One such character in a file makes Node decode the whole
// file as UTF-8 and V8 keep and parse it as two-byte text: for the mock's main chunk (460 kB, one `\u2022` bullet) that
// was 7% of the instructions `cardrail-mock` runs from its start to its first answer (20M of 292M, counted with
// valgrind's callgrind). rolldown 1.2's own `output.charset: 'ascii'` changed nothing in these unminified builds.
//
// The escape means the same character wherever the bundler leaves one: in string, template and regular expression
// literals (with or without the `u` flag), in identifiers, and in comments (as text). The one place it would not is a
// tagged template's raw text (`String.raw`), which our sources do not put non-ASCII text in.

const NON_ASCII = /[\u0080-\uffff]/;
/** A non-ASCII code unit and the backslashes just before it. */
const ESCAPABLE = /(\\*)([\u0080-\uffff])/g;

/**
 * `\uXXXX` for one UTF-16 code unit. An odd run of backslashes before it ends in an escape of the character itself
 * (`'\•'` is `'•'`), which the `\u` escape replaces; an even run is escaped backslashes, kept whole.
 */
const escapeCodeUnit = (_match, backslashes, character) =>
  `${backslashes.slice(0, backslashes.length - (backslashes.length % 2))}\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The chunk's text with every non-ASCII code unit escaped. */
export function asciiOnly(code) {
  return code.replace(ESCAPABLE, escapeCodeUnit);
}

export function asciiOutput() {
  return {
    name: 'cardrail:ascii-output',
    generateBundle: {
      // Last, once every chunk is final: in the CommonJS builds (rolldown 1.2), text a renderChunk hook escaped came
      // out unescaped again.
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          // Declarations are read by editors, not run: they keep their text as written.
          if (file.type !== 'chunk' || /\.d\.[cm]?ts$/.test(file.fileName) || !NON_ASCII.test(file.code)) continue;
          file.code = asciiOnly(file.code);
        }
      },
    },
  };
}
