import { describe, expect, it } from 'vitest';
import { RouteTree, routeParams } from '../src/http/route-tree.js';

function tree(templates: [string, string][]): RouteTree<string> {
  const routes = new RouteTree<string>();
  for (const [method, template] of templates) routes.add(template, method, `${method} ${template}`);
  return routes;
}

/** The value and decoded parameters a method gets at a path, or undefined (no template, or not that method). */
function route(routes: RouteTree<string>, method: string, path: string) {
  const matched = routes.match(path);
  const found = matched?.routes.get(method);
  return found && matched && { value: found.value, params: routeParams(found, matched.values) };
}

describe('RouteTree', () => {
  const routes = tree([
    ['GET', '/v1/cards'],
    ['POST', '/v1/cards'],
    ['GET', '/v1/cards/{cardId}'],
    ['GET', '/v1/cards/search'],
    ['POST', '/v1/cards/{cardId}/freeze'],
    ['GET', '/v1/webhooks/{webhookId}/deliveries/{deliveryId}'],
  ]);

  it('matches static paths and parameters, each method its own value, and gives every method of the path', () => {
    expect(route(routes, 'GET', '/v1/cards')).toEqual({ value: 'GET /v1/cards', params: {} });
    expect(route(routes, 'POST', '/v1/cards')?.value).toBe('POST /v1/cards');
    expect(route(routes, 'GET', '/v1/cards/card_1')).toEqual({ value: 'GET /v1/cards/{cardId}', params: { cardId: 'card_1' } });
    expect(route(routes, 'GET', '/v1/webhooks/wh_1/deliveries/whd_2')?.params).toEqual({
      webhookId: 'wh_1',
      deliveryId: 'whd_2',
    });
    expect([...(routes.match('/v1/cards')?.routes.keys() ?? [])]).toEqual(['GET', 'POST']);
    expect(route(routes, 'DELETE', '/v1/cards')).toBeUndefined();
  });

  it('takes a static segment before a parameter, and falls back to the parameter below it', () => {
    expect(route(routes, 'GET', '/v1/cards/search')?.value).toBe('GET /v1/cards/search');
    expect(route(routes, 'POST', '/v1/cards/search/freeze')).toEqual({
      value: 'POST /v1/cards/{cardId}/freeze',
      params: { cardId: 'search' },
    });
  });

  it('decodes parameters after matching, leaving a malformed escape as it is', () => {
    expect(route(routes, 'GET', '/v1/cards/a%2Fb')?.params).toEqual({ cardId: 'a/b' });
    expect(route(routes, 'GET', '/v1/cards/%E0%A4%A')?.params).toEqual({ cardId: '%E0%A4%A' });
    // A static segment matches only itself, never its encoding.
    expect(route(routes, 'GET', '/v1/c%61rds')).toBeUndefined();
  });

  it('matches nothing for a trailing slash, an empty segment, a missing leading slash, or a longer path', () => {
    for (const path of ['/v1/cards/', '/v1//cards', 'v1/cards', '/v1/cards//freeze', '/v1/cards/card_1/freeze/now', '/', '']) {
      expect(routes.match(path), path).toBeUndefined();
    }
  });

  it('prefers, among overlapping templates, the most static segments, then the shorter, whatever the order added', () => {
    const overlapping: [string, string][] = [
      ['GET', '/a/b/{y}/{z}'],
      ['GET', '/a/{x}/c/d'],
      ['GET', '/a/{x}/{y}/{z}'],
    ];
    for (const templates of [overlapping, [...overlapping].reverse()]) {
      const ambiguous = tree(templates);
      expect(route(ambiguous, 'GET', '/a/b/c/d')?.value).toBe('GET /a/{x}/c/d');
      expect(route(ambiguous, 'GET', '/a/b/c/e')?.value).toBe('GET /a/b/{y}/{z}');
      expect(route(ambiguous, 'GET', '/a/q/c/e')).toEqual({ value: 'GET /a/{x}/{y}/{z}', params: { x: 'q', y: 'c', z: 'e' } });
    }
  });

  it('answers a path matched before as the first time, after more distinct paths than it keeps and for long paths', () => {
    const first = route(routes, 'GET', '/v1/cards/card_kept');
    expect(route(routes, 'GET', '/v1/cards/card_kept')).toEqual(first);
    for (let i = 0; i < 2_000; i++) {
      expect(route(routes, 'POST', `/v1/cards/card_${i}/freeze`)?.params).toEqual({ cardId: `card_${i}` });
    }
    expect(route(routes, 'GET', '/v1/cards/card_kept')).toEqual({
      value: 'GET /v1/cards/{cardId}',
      params: { cardId: 'card_kept' },
    });
    const long = `card_${'x'.repeat(1_000)}`;
    for (let i = 0; i < 2; i++) expect(route(routes, 'GET', `/v1/cards/${long}`)?.params).toEqual({ cardId: long });
    // A path that matched nothing still matches nothing, and the values of a kept match cannot be changed.
    for (let i = 0; i < 2; i++) expect(routes.match('/v1/cards/card_1/freeze/now')).toBeUndefined();
    const kept = routes.match('/v1/cards/card_kept');
    if (kept === undefined) throw new Error('/v1/cards/card_kept matched nothing');
    expect(kept.values).toEqual(['card_kept']);
    expect(() => (kept.values as string[]).push('x')).toThrow(TypeError);
  });
});
