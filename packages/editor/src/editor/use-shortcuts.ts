import { useEffect, useRef } from "react";

export interface ShortcutActions {
  undo(): void;
  redo(): void;
  save(): void;
  /** The rest need a selected layer; each returns false when nothing is selected. */
  duplicate(): boolean;
  remove(): boolean;
  nudge(dx: number, dy: number): boolean;
  deselect(): void;
  zoom(direction: 1 | -1): void;
  /** Tool by its single-letter key; false when no tool has that key. */
  tool(key: string): boolean;
}

/**
 * The editor's keyboard shortcuts, on the window, ignored while a field has focus. The listener is
 * registered once and always calls the latest actions.
 */
export function useShortcuts(actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if ((e.target as HTMLElement).closest("input, textarea, select")) return;
      const a = latest.current;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      let handled = true;
      if (mod && key === "z") {
        if (e.shiftKey) a.redo();
        else a.undo();
      } else if (mod && key === "y") a.redo();
      else if (mod && key === "s") a.save();
      else if (mod && key === "d") handled = a.duplicate();
      else if (mod) handled = false;
      else if (e.key === "Delete" || e.key === "Backspace") handled = a.remove();
      else if (e.key.startsWith("Arrow")) {
        const step = e.shiftKey ? 10 : 1;
        const dx = e.key === "ArrowLeft" ? -step : e.key === "ArrowRight" ? step : 0;
        const dy = e.key === "ArrowUp" ? -step : e.key === "ArrowDown" ? step : 0;
        handled = a.nudge(dx, dy);
      } else if (e.key === "Escape") a.deselect();
      else if (e.key === "+" || e.key === "=") a.zoom(1);
      else if (e.key === "-") a.zoom(-1);
      else handled = a.tool(key);
      if (handled) e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
