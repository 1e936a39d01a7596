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
function requestTarget(url: string): RequestTarget {
  const authority = url.indexOf('//');
  const pathStart = url.indexOf('/', authority === -1 ? 0 : authority + 2);
  if (pathStart === -1) return { path: '/', query: '' };
  return targetFrom(url, pathStart);
}

/**
 * The target of a request, from `originForm` when its transport gave it (`/v1/cards?limit=1`, as the request line
 * carried it: no search for where the path starts, nor for the URL the transport made by prefixing its origin), else
 * from its URL.
 */
export function targetOf(request: { readonly url: string; readonly originForm?: string | undefined }): RequestTarget {
  return request.originForm === undefined ? requestTarget(request.url) : targetFrom(request.originForm, 0);
}

function targetFrom(text: string, pathStart: number): RequestTarget {
  const hash = text.indexOf('#', pathStart);
  const end = hash === -1 ? text.length : hash;
  const question = text.indexOf('?', pathStart);
  if (question === -1 || question > end) return { path: text.slice(pathStart, end), query: '' };
  return { path: text.slice(pathStart, question), query: text.slice(question + 1, end) };
}
