/**
 * A bounded in-process cache of values that never change once written (published template versions,
 * render outputs by blob key): what a process may keep to skip a read, and drop at any time.
 */
export interface MemoCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
}
