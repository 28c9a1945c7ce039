import { useCallback, useRef, useState } from "react";

/**
 * Undo/redo over immutable documents. A drag is one step: `preview` replaces the present while the
 * pointer moves, `commit` records the state before the gesture once, `cancel` (the browser took the
 * pointer away: pointercancel) puts that state back and records nothing. Typing in one field coalesces
 * into one step while the same key keeps coming within a second.
 */
export interface History<T> {
  present: T;
  set(next: T, coalesceKey?: string): void;
  preview(next: T): void;
  commit(): void;
  cancel(): void;
  undo(): void;
  redo(): void;
  reset(next: T): void;
  canUndo: boolean;
  canRedo: boolean;
}

const COALESCE_MS = 1000;

export function useHistory<T>(initial: T): History<T> {
  const [, force] = useState(0);
  const state = useRef({
    past: [] as T[],
    present: initial,
    future: [] as T[],
    gestureBase: null as T | null,
    lastKey: null as string | null,
    lastAt: 0,
  });
  const rerender = useCallback(() => force((n) => n + 1), []);
  const s = state.current;

  const set = useCallback(
    (next: T, coalesceKey?: string) => {
      const st = state.current;
      const now = Date.now();
      const coalesce =
        coalesceKey !== undefined && coalesceKey === st.lastKey && now - st.lastAt < COALESCE_MS;
      if (!coalesce) st.past.push(st.present);
      st.present = next;
      st.future = [];
      st.lastKey = coalesceKey ?? null;
      st.lastAt = now;
      rerender();
    },
    [rerender],
  );
  const preview = useCallback(
    (next: T) => {
      const st = state.current;
      st.gestureBase ??= st.present;
      st.present = next;
      rerender();
    },
    [rerender],
  );
  const commit = useCallback(() => {
    const st = state.current;
    if (st.gestureBase !== null && st.gestureBase !== st.present) {
      st.past.push(st.gestureBase);
      st.future = [];
    }
    st.gestureBase = null;
    st.lastKey = null;
    rerender();
  }, [rerender]);
  const cancel = useCallback(() => {
    const st = state.current;
    if (st.gestureBase !== null) st.present = st.gestureBase;
    st.gestureBase = null;
    st.lastKey = null;
    rerender();
  }, [rerender]);
  const undo = useCallback(() => {
    const st = state.current;
    const prev = st.past.pop();
    if (prev === undefined) return;
    st.future.push(st.present);
    st.present = prev;
    st.lastKey = null;
    rerender();
  }, [rerender]);
  const redo = useCallback(() => {
    const st = state.current;
    const next = st.future.pop();
    if (next === undefined) return;
    st.past.push(st.present);
    st.present = next;
    st.lastKey = null;
    rerender();
  }, [rerender]);
  const reset = useCallback(
    (next: T) => {
      state.current = { past: [], present: next, future: [], gestureBase: null, lastKey: null, lastAt: 0 };
      rerender();
    },
    [rerender],
  );
  return {
    present: s.present,
    set,
    preview,
    commit,
    cancel,
    undo,
    redo,
    reset,
    canUndo: s.past.length > 0,
    canRedo: s.future.length > 0,
  };
}
