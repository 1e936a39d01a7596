/** The path and query string of an absolute request URL. */
export interface RequestTarget {
  path: string;
  /** The query string without its `?`; empty when there is none. */
  query: string;
}

/**
 * Splits `request.url` without building a URL object, which would cost as much as routing the request: the
 * runtime already made the URL absolute and well-formed, so the path starts at the first `/` after the authority.
 */
export function requestTarget(url: string): RequestTarget {
  const authority = url.indexOf('//');
  const pathStart = url.indexOf('/', authority === -1 ? 0 : authority + 2);
  if (pathStart === -1) return { path: '/', query: '' };
  const hash = url.indexOf('#', pathStart);
  const end = hash === -1 ? url.length : hash;
  const question = url.indexOf('?', pathStart);
  if (question === -1 || question > end) return { path: url.slice(pathStart, end), query: '' };
  return { path: url.slice(pathStart, question), query: url.slice(question + 1, end) };
}
