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

/**
 * The `count` candidates closest to a word, closest first: by edit distance, a candidate that contains the word
 * counting as closest (`frozen` -> `card.frozen`).
 */
export function closestWords(word: string, candidates: readonly string[], count: number): string[] {
  const target = word.toLowerCase();
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      return { candidate, distance: lower.includes(target) ? 0 : editDistance(target, lower) };
    })
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
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
