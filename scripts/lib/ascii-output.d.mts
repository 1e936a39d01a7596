// Types of ascii-output.mjs, for the tsdown configs that use it.

/** The text with every code unit past U+007F written as its `\uXXXX` escape. */
export function asciiOnly(code: string): string;

/** A rolldown plugin writing every JavaScript chunk in ASCII. */
export function asciiOutput(): {
  name: string;
  generateBundle: {
    order: 'post';
    handler(
      options: unknown,
      bundle: Record<string, { type: 'chunk'; fileName: string; code: string } | { type: 'asset'; fileName: string }>,
    ): void;
  };
};
