/** The MSW major in force for this run (CARDRAIL_MSW_MAJOR): 2 or 3. */
export declare function mswMajor(): 2 | 3;
/** vitest's `resolve.alias` entries that point `msw` at msw 2 when CARDRAIL_MSW_MAJOR=2. */
export declare function mswAlias(): { find: RegExp; replacement: string }[];
/** listen()/start() options for unhandled requests that both msw 2 (onUnhandledRequest) and msw 3 (onUnhandledFrame) read. */
export declare function unhandled<S extends 'error' | 'warn' | 'bypass'>(
  strategy: S,
): { onUnhandledRequest: S; onUnhandledFrame: S };
