import { editDistance } from '../core/edit-distance.js';

/** A routed path template (`/v1/cards/{cardId}/freeze`) and the methods it answers. */
export interface RoutedPath {
  path: string;
  methods: readonly string[];
}

/** The longest path repeated in the hint (a header value stays short). */
const MAX_SUGGESTION = 160;

/**
 * The route a 404's path most likely meant, as a hint (`POST /v1/simulate/deposit` -> `POST /v1/simulate/deposits`):
 * a template with as many segments whose every literal segment is the request's, or within a few edits of it (at
 * most a third of the segment, at least one). The request's own values stay in the places of path parameters. The
 * request's method wins a tie. Only 404s pay for this: one pass over the routes, none of the stored objects.
 */
export function nearPathHint(method: string, path: string, routes: readonly RoutedPath[]): string | undefined {
  const segments = path.split('/');
  let best: { route: RoutedPath; distance: number; suggestion: string } | undefined;
  for (const route of routes) {
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const distance = segmentsDistance(segments, template);
    if (distance === undefined || distance === 0) continue;
    const better =
      best === undefined ||
      distance < best.distance ||
      (distance === best.distance && route.methods.includes(method) && !best.route.methods.includes(method));
    if (better) {
      const suggestion = template.map((part, index) => (isParameter(part) ? segments[index] : part)).join('/');
      best = { route, distance, suggestion };
    }
  }
  if (!best || best.suggestion.length > MAX_SUGGESTION || /[^\x21-\x7e]/.test(best.suggestion)) return undefined;
  const methods = best.route.methods.includes(method) ? method : best.route.methods.join(' or ');
  return `No route ${method} ${path.length > MAX_SUGGESTION ? `${path.slice(0, MAX_SUGGESTION)}...` : path}; did you mean ${methods} ${best.suggestion}?`.replace(
    /[^\x20-\x7e]/g,
    '?',
  );
}

const isParameter = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/** The edits between the request's segments and a template's, or undefined when a segment is too far off. */
function segmentsDistance(segments: readonly string[], template: readonly string[]): number | undefined {
  let total = 0;
  for (let index = 0; index < template.length; index++) {
    const expected = template[index] as string;
    const actual = segments[index] as string;
    if (isParameter(expected)) {
      if (actual === '') return undefined;
      continue;
    }
    if (actual === expected) continue;
    const allowed = Math.max(1, Math.floor(expected.length / 3));
    // Cheap first: a length this far off cannot be within `allowed` edits (and a long segment costs no alignment).
    if (Math.abs(actual.length - expected.length) > allowed) return undefined;
    const distance = editDistance(actual.toLowerCase(), expected.toLowerCase());
    if (distance > allowed) return undefined;
    total += distance;
  }
  return total;
}
