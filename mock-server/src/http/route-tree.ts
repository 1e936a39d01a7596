/**
 * The router: path templates (`/cards/{cardId}`) in a tree of their segments, each method's value where a template
 * ends. Adding a template costs a few map entries and a match walks the path's segments once, so a mock answers its
 * first request without compiling anything (a router that compiles one regular expression of every route, such as
 * Hono's RegExpRouter, spent two fifths of a first answer doing so) and later ones as fast.
 *
 * A parameter is a whole, non-empty segment, matched before it is decoded; a static segment matches only itself. When
 * templates overlap (the bundled spec has none: its lint refuses ambiguous paths), the one with the most static
 * segments wins, then the shorter, then the first in code unit order, whatever order they were added in.
 */
export class RouteTree<T> {
  readonly #root = new RouteNode<T>();
  /**
   * The matches of the paths last matched: a client reads the same resources again and again (a poll, a test's
   * reads after its writes), and a hit costs one map lookup where a walk costs a slice per segment and a result.
   * At most RECENT_PATHS paths of at most RECENT_PATH_LENGTH characters, forgotten all at once when full, so that no
   * stream of distinct paths holds more; a path that matches nothing is not kept.
   */
  readonly #recent = new Map<string, RouteMatch<T>>();

  /** Adds `value` for `method` at `template`, whose `{name}` segments are parameters. */
  add(template: string, method: string, value: T): void {
    let node = this.#root;
    const names: string[] = [];
    for (const segment of template.split('/').slice(1)) {
      if (segment.startsWith('{') && segment.endsWith('}')) {
        names.push(segment.slice(1, -1));
        node.param ??= new RouteNode<T>();
        node = node.param;
      } else {
        const next = node.statics.get(segment) ?? new RouteNode<T>();
        node.statics.set(segment, next);
        node = next;
      }
    }
    node.leaf ??= { template, rank: specificity(template), methods: new Map() };
    node.leaf.methods.set(method, { value, names });
  }

  /** The routes of the template a path matches, and the parameters' values (raw, in order), or undefined. */
  match(path: string): RouteMatch<T> | undefined {
    const recent = this.#recent.get(path);
    if (recent !== undefined) return recent;
    if (path.charCodeAt(0) !== 0x2f) return undefined;
    const found = find(this.#root, path, 1, []);
    if (found === undefined) return undefined;
    const match: RouteMatch<T> = { routes: found.leaf.methods, values: Object.freeze(found.values) };
    if (path.length <= RECENT_PATH_LENGTH) {
      if (this.#recent.size >= RECENT_PATHS) this.#recent.clear();
      this.#recent.set(path, match);
    }
    return match;
  }
}

/** How many paths' matches a tree keeps, and how long a kept path may be (at most about 128 kB in all). */
const RECENT_PATHS = 512;
const RECENT_PATH_LENGTH = 256;

/** What a path matched: each method's route at its template, and the parameters' raw values in template order. */
export interface RouteMatch<T> {
  routes: ReadonlyMap<string, MethodRoute<T>>;
  values: readonly string[];
}

/** One method of a template: its value and the names of its parameters, in order. */
export interface MethodRoute<T> {
  value: T;
  names: readonly string[];
}

/** The decoded parameters of a match for one method's route (a malformed escape is left as it is). */
export function routeParams(route: MethodRoute<unknown>, values: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.names.length; i++) {
    const raw = values[i] as string;
    params[route.names[i] as string] = raw.includes('%') ? decoded(raw) : raw;
  }
  return params;
}

interface Leaf<T> {
  template: string;
  rank: number;
  methods: Map<string, MethodRoute<T>>;
}

class RouteNode<T> {
  readonly statics = new Map<string, RouteNode<T>>();
  param: RouteNode<T> | undefined = undefined;
  leaf: Leaf<T> | undefined = undefined;
}

/**
 * The best template under `node` for the path from `start` on (its segments after the one `node` matched), pushing
 * parameter values onto `values`; the static child is tried before the parameter, and both only when they overlap.
 */
function find<T>(
  node: RouteNode<T>,
  path: string,
  start: number,
  values: string[],
): { leaf: Leaf<T>; values: string[] } | undefined {
  if (start > path.length) return node.leaf && { leaf: node.leaf, values: values.slice() };
  const slash = path.indexOf('/', start);
  const end = slash === -1 ? path.length : slash;
  const next = end + 1;
  const segment = path.slice(start, end);
  const child = node.statics.get(segment);
  const viaStatic = child && find(child, path, next, values);
  if (node.param === undefined || end === start) return viaStatic;
  values.push(segment);
  const viaParam = find(node.param, path, next, values);
  values.pop();
  if (!viaStatic) return viaParam;
  return viaParam && before(viaParam.leaf, viaStatic.leaf) ? viaParam : viaStatic;
}

function before(a: Leaf<unknown>, b: Leaf<unknown>): boolean {
  return a.rank !== b.rank ? a.rank > b.rank : a.template < b.template;
}

/** More static segments first, then fewer segments. */
function specificity(template: string): number {
  const segments = template.split('/');
  return segments.filter((segment) => segment !== '' && !segment.startsWith('{')).length * 100 - segments.length;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
