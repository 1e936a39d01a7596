import { describe, expect, it } from 'vitest';
import { Coverage } from '../src/coverage.js';
import { renderCoverageMarkdown } from '../src/coverage-report.js';
import { ENVELOPE_OF, loadSpecs, VARIANTS } from '../src/spec.js';

/**
 * The coverage verdict is what fails a scenario run that skipped an operation or an event type; it must name exactly
 * what is missing, per variant and per envelope. The report must keep gaps and the not-exercisable 500 apart.
 */
const specs = loadSpecs();

/** A coverage that saw every operation (with its success status) and every event type, less the given ones. */
function coverageWithout(skipOperation: string, skipEvent: string): Coverage {
  const coverage = new Coverage('unit');
  for (const variant of VARIANTS) {
    for (const op of specs[variant].operations) {
      if (`${variant} ${op.operationId}` === skipOperation) continue;
      coverage.addResponse(variant, op.operationId, Number([...op.responses.keys()][0]));
    }
    for (const type of specs[variant].events.keys()) {
      if (`${ENVELOPE_OF[variant]} ${type}` !== skipEvent) coverage.addEvent(ENVELOPE_OF[variant], type);
    }
  }
  return coverage;
}

describe('coverage verdict and report', () => {
  it('names the operation never answered and the event type never delivered, with its envelope', () => {
    const coverage = coverageWithout('user deleteUser', 'catalog card.frozen');
    expect(coverage.missing(specs)).toEqual({
      operations: ['user deleteUser (DELETE /users/{userId})'],
      events: ['catalog card.frozen'],
    });
  });

  it('an event delivered only in the other envelope still counts as missing', () => {
    const coverage = coverageWithout('none', 'general card.frozen');
    coverage.addEvent('catalog', 'card.frozen');
    expect(coverage.missing(specs).events).toEqual(['general card.frozen']);
  });

  it('a complete coverage has nothing missing', () => {
    expect(coverageWithout('none', 'none').missing(specs)).toEqual({ operations: [], events: [] });
  });

  it('the report marks what was never exercised and lists 500, 502 and 503 as not exercisable, not as a gap', () => {
    const markdown = renderCoverageMarkdown([coverageWithout('customer getCard', 'general card.frozen').toJSON()], specs);
    expect(markdown).toContain(
      '| **getCard (never exercised)** | GET /cards/{cardId} |  | 200, 400, 401, 404, 429 | 500, 502, 503 |',
    );
    expect(markdown).toContain('| **card.frozen (never delivered)** |');
    expect(markdown).toMatch(/Operations exercised over the run: 133\/134\./);
    expect(markdown).toMatch(/Not exercisable: 402, never counted as seen:\n- 500: .*\n- 502: .*\n- 503: /);
  });
});
