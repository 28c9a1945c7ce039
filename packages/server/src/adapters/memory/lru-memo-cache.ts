import { LRUCache } from "lru-cache";
import type { MemoCache } from "../../ports/memo-cache.ts";

/**
 * A MemoCache that drops the least recently used entries first: at most `maxEntries` entries, or
 * entries weighing at most `maxWeight` together (a value heavier than that is not kept).
 */
export function lruMemoCache<V extends object>(
  limit: { maxEntries: number } | { maxWeight: number; weigh: (value: V) => number },
): MemoCache<V> {
  const cache =
    "maxEntries" in limit
      ? new LRUCache<string, V>({ max: limit.maxEntries })
      : new LRUCache<string, V>({
          maxSize: limit.maxWeight,
          sizeCalculation: (value) => Math.max(1, limit.weigh(value)),
        });
  return {
    get: (key) => cache.get(key),
    set: (key, value) => {
      cache.set(key, value);
    },
    delete: (key) => {
      cache.delete(key);
    },
  };
}
