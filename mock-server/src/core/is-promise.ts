/**
 * Whether a value is a promise, by its `then`, not by `instanceof Promise`: a promise of another realm fails that test.
 * jest runs a suite in a vm context whose `Promise` is not Node's, while `Request#text()` and Web Crypto answer with
 * Node's; a step that took such a promise for a value would read the promise itself as the body.
 */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
