import { editDistance } from '../core/edit-distance.js';

/** The `count` candidates nearest to `word` by edit distance (ties in the candidates' order): for "did you mean". */
export function closest(word: string, candidates: readonly string[], count: number): string[] {
  const lower = word.toLowerCase();
  return candidates
    .map((candidate, index) => ({ candidate, index, distance: editDistance(lower, candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
