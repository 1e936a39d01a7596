/**
 * The optimal string alignment distance of two words: the fewest insertions, deletions, substitutions and swaps of
 * two neighbours that turn one into the other (for "did you mean" suggestions).
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : i)));
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = distance;
    }
  }
  return at(a.length, b.length);
}

/**
 * The `count` candidates closest to a word, closest first: by edit distance, a candidate that contains the word
 * counting as closest (`frozen` -> `card.frozen`); ties in code unit order.
 */
export function closestWords(word: string, candidates: readonly string[], count: number): string[] {
  const target = word.toLowerCase();
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      return { candidate, distance: lower.includes(target) ? 0 : editDistance(target, lower) };
    })
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
