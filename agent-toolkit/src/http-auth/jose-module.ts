/**
 * `jose`, loaded when the first token is checked. It is published as an ES module only; a dynamic import loads it
 * from this package's CommonJS build too, on every Node version the package supports.
 */
export type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

export function loadJose(): Promise<Jose> {
  loading ??= import('jose');
  return loading;
}
