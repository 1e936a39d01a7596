import { editDistance } from '../core/edit-distance.js';

export { closestWords } from '../core/edit-distance.js';

/**
 * The candidate closest to a mistyped word, if one is close enough to be what was meant (`sed` -> `seed`): at most
 * one edit for short words, a third of the word's length for longer ones. An edit is an insertion, a deletion, a
 * substitution or a swap of two neighbours (the optimal string alignment distance).
 */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
