import { useEffect, useState } from "react";
import { Stage } from "../canvas/Stage.tsx";
import { shortcutActions, useShortcuts } from "../controls/use-shortcuts.ts";
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

function EditorLayout({ onSignOut }: { onSignOut(): void }) {
  const editor = useEditor();
  const loadError = useEditor((s) => s.loadError);
  const ready = useEditor((s) => s.loaded && s.engine !== null);
  useShortcuts(shortcutActions(editor));

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
      <TopBar onSignOut={onSignOut} />
      <LeftPanel />
      <Stage />
      <RightPanel />
    </div>
  );
}
