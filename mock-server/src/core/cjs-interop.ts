/**
 * The function a CommonJS module exports as `default` (Ajv and its helpers are CommonJS): Node's ESM loader hands
 * over the whole `module.exports` as the default import, bundlers hand over `exports.default`, so the function is
 * taken from whichever arrived.
 */
export function defaultFunction<T>(imported: unknown): T {
  return (typeof imported === 'function' ? imported : (imported as { default: T }).default) as T;
}

/**
 * The exports of a module loaded with `import()` that may be CommonJS: the published package ships its data modules
 * (the spec documents, the generated request checks) once, as CommonJS files that its ESM build imports too, where
 * Node.js hands over `module.exports` as `default` (and bundlers a namespace with `default` and the named exports);
 * from the ES module sources (tests, `npm run mock`) the namespace itself is the exports.
 */
export function moduleExports<T extends object>(imported: unknown): T {
  const { default: commonJs } = imported as { default?: unknown };
  return (commonJs !== null && typeof commonJs === 'object' ? commonJs : imported) as T;
}
