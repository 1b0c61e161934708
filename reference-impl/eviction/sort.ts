/**
 * Go's sort.Sort as it behaves on the short lists eviction sorts.
 * @go sort.Sort
 * Go runs exactly this for 12 elements or fewer; on longer lists its pdqsort may order elements that
 * compare equal differently (neither is stable by contract).
 * Simplified: always insertion sort.
 */
export function goSort<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) {
      [items[j], items[j - 1]] = [items[j - 1], items[j]];
    }
  }
  return items;
}
