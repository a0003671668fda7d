/*
 * Did-you-mean: the known word nearest to a misspelt one. The registry suggests an option key or a
 * served resource's URI with it, the analysis and the front-ends a misspelt option or CLI flag, so
 * every misspelling in the project is answered the same way.
 */

/**
 * The candidate nearest to a mistyped word, when it is near enough to be a typo (edit distance at
 * most a third of the word, and at least 1). Shared by the front-ends' option checks, so a
 * misspelt CLI flag and a misspelt tsconfig plugin option are suggested the same way.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
