/**
 * The editor's keyboard shortcuts as the sheet (`?`) lists them, by section. Ctrl is Cmd on a Mac.
 * The keys themselves are handled in use-shortcuts.ts (canvas, arrangement, zoom), use-stage-view.ts
 * (Space to pan) and InlineTextEditor.tsx (text styles).
 */
export const SHORTCUT_SECTIONS: readonly {
  title: string;
  rows: readonly [keys: string, action: string][];
}[] = [
  {
    title: "Tools and view",
    rows: [
      ["V T I R E", "select tool, text, image, rectangle, ellipse"],
      ["+ / −, Ctrl+wheel", "zoom in, out"],
      ["Shift+0, Shift+1, Shift+2", "zoom to 100 %, fit every frame, fit the selection"],
      ["Space+drag, middle-drag", "pan"],
      ["?", "this list of shortcuts"],
    ],
  },
  {
    title: "Edit",
    rows: [
      ["Ctrl+Z, Ctrl+Shift+Z (Ctrl+Y)", "undo, redo"],
      ["Ctrl+S", "save now"],
      ["Ctrl+C, Ctrl+X, Ctrl+V", "copy, cut, paste"],
      ["Ctrl+D", "duplicate"],
      ["Delete, Backspace", "delete the selection"],
      ["Ctrl+A", "select every layer of the frame"],
      ["Escape", "leave the text, deselect"],
      ["Enter", "type into the selected text layer"],
      ["Shift+F10, context menu key", "the selection's menu (also a right-click)"],
    ],
  },
  {
    title: "Arrange",
    rows: [
      ["Arrows, Shift+arrows", "nudge 1 px, 10 px"],
      ["Ctrl+G, Ctrl+Shift+G", "group, ungroup"],
      ["Ctrl+], Ctrl+[", "bring forward, send backward"],
      ["Ctrl+Shift+], Ctrl+Shift+[", "bring to front, send to back"],
      ["Ctrl+Shift+L, Ctrl+Shift+H", "lock, hide"],
      ["Alt+A, Alt+H, Alt+D", "align left, centre, right"],
      ["Alt+W, Alt+V, Alt+S", "align top, middle, bottom"],
      ["Alt+Shift+H, Alt+Shift+V", "distribute horizontally, vertically"],
    ],
  },
  {
    title: "Text (while typing)",
    rows: [
      ["Ctrl+B, Ctrl+I, Ctrl+U", "bold, italic, underline (rich text slot)"],
      ["Ctrl+Shift+X", "strike-through (rich text slot)"],
    ],
  },
  {
    title: "Layers panel",
    rows: [
      ["Double-click a name, F2", "rename the layer"],
      ["Shift+Enter, Shift-click", "add the row to the selection"],
    ],
  },
];
