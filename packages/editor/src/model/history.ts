/**
 * Undo/redo over immutable documents. A drag is one step: `preview` replaces the present while the
 * pointer moves, `commit` records the state before the gesture once, `cancel` (the browser took the
 * pointer away: pointercancel) puts that state back and records nothing. Typing in one field coalesces
 * into one step while the same key keeps coming within a second.
 *
 * Plain data, no React: the editor store (store/editor-store.ts) holds one and tells its readers.
 */
export class History<T> {
  #past: T[] = [];
  #present: T;
  #future: T[] = [];
  /** The present before the running gesture's first preview; null when no gesture runs. */
  #gestureBase: T | null = null;
  #lastKey: string | null = null;
  #lastAt = 0;
  readonly #now: () => number;

  static readonly COALESCE_MS = 1000;

  constructor(initial: T, now: () => number = Date.now) {
    this.#present = initial;
    this.#now = now;
  }

  get present(): T {
    return this.#present;
  }

  get canUndo(): boolean {
    return this.#past.length > 0;
  }

  get canRedo(): boolean {
    return this.#future.length > 0;
  }

  /** A gesture's previews are the present, not yet committed or cancelled. */
  get inGesture(): boolean {
    return this.#gestureBase !== null;
  }

  /** A new present, one undo step unless it continues the last edit of the same key within a second. */
  set(next: T, coalesceKey?: string): void {
    const now = this.#now();
    const coalesce =
      coalesceKey !== undefined && coalesceKey === this.#lastKey && now - this.#lastAt < History.COALESCE_MS;
    if (!coalesce) this.#past.push(this.#present);
    this.#present = next;
    this.#future = [];
    this.#lastKey = coalesceKey ?? null;
    this.#lastAt = now;
  }

  /** The present during a gesture, not yet an undo step. */
  preview(next: T): void {
    this.#gestureBase ??= this.#present;
    this.#present = next;
  }

  /** Ends a gesture: one undo step back to where it started, if it changed anything. */
  commit(): void {
    if (this.#gestureBase !== null && this.#gestureBase !== this.#present) {
      this.#past.push(this.#gestureBase);
      this.#future = [];
    }
    this.#gestureBase = null;
    this.#lastKey = null;
  }

  /** Ends a gesture the browser cancelled: back to where it started, no undo step. */
  cancel(): void {
    if (this.#gestureBase !== null) this.#present = this.#gestureBase;
    this.#gestureBase = null;
    this.#lastKey = null;
  }

  undo(): boolean {
    const prev = this.#past.pop();
    if (prev === undefined) return false;
    this.#future.push(this.#present);
    this.#present = prev;
    this.#lastKey = null;
    return true;
  }

  redo(): boolean {
    const next = this.#future.pop();
    if (next === undefined) return false;
    this.#past.push(this.#present);
    this.#present = next;
    this.#lastKey = null;
    return true;
  }

  /** A new document: no past, no future. */
  reset(next: T): void {
    this.#past = [];
    this.#present = next;
    this.#future = [];
    this.#gestureBase = null;
    this.#lastKey = null;
    this.#lastAt = 0;
  }
}
