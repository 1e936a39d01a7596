/**
 * The function a CommonJS module exports as `default` (Ajv and its helpers are CommonJS): Node's ESM loader hands
 * over the whole `module.exports` as the default import, bundlers hand over `exports.default`, so the function is
 * taken from whichever arrived.
 */
export function defaultFunction<T>(imported: unknown): T {
  return (typeof imported === 'function' ? imported : (imported as { default: T }).default) as T;
}
