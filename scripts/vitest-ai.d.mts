// Types of vitest-ai.mjs for the TypeScript files that import it (vitest configs and tests).
export declare function aiMajor(): 6 | 7;
export declare function aiAlias(): { find: RegExp; replacement: string }[];
