import { useEffect, useRef } from "react";
import type { AlignEdge, ZOrder } from "../model/arrange.ts";
import type { EditorStore } from "../store/editor-store.ts";
import type { ZoomTarget } from "../store/view.ts";
import { takePasteClaim } from "./paste-claim.ts";
import { toolOfKey } from "./tools.ts";

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
  selectAll(): boolean;
  copy(): boolean;
  cut(): boolean;
  paste(): boolean;
  group(): boolean;
  ungroup(): boolean;
  order(op: ZOrder): boolean;
  align(edge: AlignEdge): boolean;
  distribute(axis: "x" | "y"): boolean;
  toggleLock(): boolean;
  toggleHidden(): boolean;
  /** Enter: type into the selected text layer. */
  editText(): boolean;
  zoomTo(what: ZoomTarget): void;
  /** `?`: the keyboard shortcut sheet. */
  shortcuts(): void;
  /** Shift+F10 or the context menu key: the selection's menu; false when nothing is selected. */
  contextMenu(): boolean;
}

/** What the shortcuts open in the editor's layout rather than change in the store. */
export interface ShortcutScreens {
  shortcuts(): void;
  contextMenu(): boolean;
}

/** The shortcuts' actions on an editor store, and the layout's sheet and menu. */
export function shortcutActions(editor: EditorStore, screens: ShortcutScreens): ShortcutActions {
  return {
    ...editor.arrange,
    ...screens,
    undo: editor.undo,
    redo: editor.redo,
    save: () => void editor.save(),
    deselect: () => editor.deselect(),
    zoom: (direction) => editor.zoomStep(direction),
    zoomTo: (what) => editor.zoomTo(what),
    editText: () => editor.editText(),
    tool(key) {
      const tool = toolOfKey(key);
      if (tool) editor.setTool(tool);
      return tool !== undefined;
    },
  };
}

/** Alt+letter (by physical key, as Alt changes the character on some layouts): align, distribute. */
const ALT_KEYS: Record<string, (a: ShortcutActions, shift: boolean) => boolean> = {
  KeyA: (a) => a.align("left"),
  KeyD: (a) => a.align("right"),
  KeyH: (a, shift) => (shift ? a.distribute("x") : a.align("center")),
  KeyW: (a) => a.align("top"),
  KeyS: (a) => a.align("bottom"),
  KeyV: (a, shift) => (shift ? a.distribute("y") : a.align("middle")),
};

/** Runs an action that always applies, as handled. */
function done(action: () => void): true {
  action();
  return true;
}

function modKey(a: ShortcutActions, e: KeyboardEvent, key: string): boolean | undefined {
  if (key === "z") {
    if (e.shiftKey) a.redo();
    else a.undo();
    return true;
  }
  if (key === "y") return done(() => a.redo());
  if (key === "s") return done(() => a.save());
  if (key === "d") return a.duplicate();
  if (key === "a") return a.selectAll();
  if (key === "c") return a.copy();
  if (key === "x") return a.cut();
  if (key === "v") {
    // Not prevented, so the browser's paste event (files on the clipboard) comes first.
    setTimeout(() => {
      if (!takePasteClaim()) a.paste();
    }, 0);
    return false;
  }
  if (key === "g") return e.shiftKey ? a.ungroup() : a.group();
  if (key === "l" && e.shiftKey) return a.toggleLock();
  if (key === "h" && e.shiftKey) return a.toggleHidden();
  if (e.code === "BracketRight") return a.order(e.shiftKey ? "front" : "forward");
  if (e.code === "BracketLeft") return a.order(e.shiftKey ? "back" : "backward");
  return undefined;
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
      if ((e.target as HTMLElement).closest("input, textarea, select, [role=slider]")) return;
      const a = latest.current;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      let handled: boolean;
      if (mod) handled = modKey(a, e, key) ?? false;
      else if (e.altKey) handled = ALT_KEYS[e.code]?.(a, e.shiftKey) ?? false;
      else if (e.shiftKey && e.code === "Digit0") handled = done(() => a.zoomTo("actual"));
      else if (e.shiftKey && e.code === "Digit1") handled = done(() => a.zoomTo("fit"));
      else if (e.shiftKey && e.code === "Digit2") handled = done(() => a.zoomTo("selection"));
      else if (e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) handled = a.contextMenu();
      else if (e.key === "?") handled = done(() => a.shortcuts());
      else if (e.key === "Delete" || e.key === "Backspace") handled = a.remove();
      else if (e.key === "Enter") {
        // A focused button or list row keeps its own Enter.
        if ((e.target as HTMLElement).closest("button, [role=option], a")) return;
        handled = a.editText();
      } else if (e.key.startsWith("Arrow")) {
        const step = e.shiftKey ? 10 : 1;
        const dx = e.key === "ArrowLeft" ? -step : e.key === "ArrowRight" ? step : 0;
        const dy = e.key === "ArrowUp" ? -step : e.key === "ArrowDown" ? step : 0;
        handled = a.nudge(dx, dy);
      } else if (e.key === "Escape") handled = done(() => a.deselect());
      else if (e.key === "+" || e.key === "=") handled = done(() => a.zoom(1));
      else if (e.key === "-") handled = done(() => a.zoom(-1));
      else handled = a.tool(key);
      if (handled) e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
