import { useCallback, useEffect, useState } from "react";
import { Stage } from "../canvas/Stage.tsx";
import { ExportDialog } from "../controls/ExportDialog.tsx";
import { LayerContextMenu } from "../controls/LayerContextMenu.tsx";
import { ShortcutSheet } from "../controls/ShortcutSheet.tsx";
import { shortcutActions, useShortcuts } from "../controls/use-shortcuts.ts";
import { selectionBounds } from "../model/arrange.ts";
import { selectedIds } from "../model/selection.ts";
import { LeftPanel } from "../panels/LeftPanel.tsx";
import { RightPanel } from "../panels/RightPanel.tsx";
import { TopBar } from "../panels/TopBar.tsx";
import { setActiveEditor } from "../store/active-editor.ts";
import { browserDeps } from "../store/browser-deps.ts";
import { EditorStore } from "../store/editor-store.ts";
import { EditorProvider, useEditor } from "../store/use-editor.ts";

/**
 * The editor of one template: an editor store (store/editor-store.ts) for its life, and the layout
 * that reads it: the bar, the tools and layers on the left, the frames in the middle, the tabs on
 * the right. The keyboard shortcuts act on the same store.
 */
export function EditorScreen({ templateId, onSignOut }: { templateId: string; onSignOut(): void }) {
  const [editor] = useState(() => new EditorStore(templateId, browserDeps));
  useEffect(() => {
    void editor.load();
    setActiveEditor(editor);
    return () => {
      setActiveEditor(null);
      editor.dispose();
    };
  }, [editor]);
  return (
    <EditorProvider editor={editor}>
      <EditorLayout onSignOut={onSignOut} />
    </EditorProvider>
  );
}

/** Where the keyboard opens the context menu: below the selection's box on screen. */
function selectionPoint(editor: EditorStore): { x: number; y: number } | null {
  const { doc, selection, zoom } = editor.getState();
  const frame = doc.frames[editor.frameIndex()];
  const ids = selectedIds(selection);
  const box = frame && ids.length > 0 ? selectionBounds(frame, ids) : null;
  const overlay = frame
    ? document.querySelector(`[data-testid="frame-overlay-${CSS.escape(frame.name)}"]`)
    : null;
  if (!box || !overlay) return null;
  const r = overlay.getBoundingClientRect();
  return { x: r.left + box.x * zoom, y: r.top + (box.y + box.height) * zoom + 4 };
}

/** Right-clicks that open the editor's context menu: on a frame, the pasteboard, a layer row. */
const MENU_TARGETS = ".frame-overlay, .stage-wrap, [data-testid='layer-row']";

function EditorLayout({ onSignOut }: { onSignOut(): void }) {
  const editor = useEditor();
  const loadError = useEditor((s) => s.loadError);
  const ready = useEditor((s) => s.loaded && s.engine !== null);
  const [sheet, setSheet] = useState(false);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const closeSheet = useCallback(() => setSheet(false), []);
  const [exporting, setExporting] = useState(false);
  const closeExport = useCallback(() => setExporting(false), []);
  const closeMenu = useCallback(() => setMenu(null), []);
  useShortcuts(
    shortcutActions(editor, {
      shortcuts: () => setSheet(true),
      contextMenu() {
        const at = selectionPoint(editor);
        if (at) setMenu(at);
        return at !== null;
      },
    }),
  );

  useEffect(() => {
    const open = (e: MouseEvent) => {
      const target = e.target as Element | null;
      if (target?.closest(".context-menu")) return e.preventDefault();
      if (!target?.closest(MENU_TARGETS) || target.closest("input, textarea, .inline-text")) return;
      e.preventDefault();
      setMenu({ x: e.clientX, y: e.clientY });
    };
    window.addEventListener("contextmenu", open);
    return () => window.removeEventListener("contextmenu", open);
  }, []);

  if (loadError) {
    return (
      <div className="center-message">
        <p className="error">{loadError}</p>
        <a href="#/templates">Back to templates</a>
      </div>
    );
  }
  if (!ready) {
    return (
      <div className="center-message" data-testid="editor-loading">
        <div className="spinner" />
        <p className="muted">Loading the engine and fonts…</p>
      </div>
    );
  }
  return (
    <div className="editor" data-testid="editor">
      <TopBar onSignOut={onSignOut} onShortcuts={() => setSheet(true)} onExport={() => setExporting(true)} />
      <LeftPanel />
      <Stage />
      <RightPanel />
      {menu && <LayerContextMenu x={menu.x} y={menu.y} onClose={closeMenu} />}
      {sheet && <ShortcutSheet onClose={closeSheet} />}
      {exporting && <ExportDialog onClose={closeExport} />}
    </div>
  );
}
