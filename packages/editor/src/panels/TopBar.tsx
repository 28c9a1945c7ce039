import type { TemplateWarning } from "../api/client.ts";
import { ZoomControls } from "../controls/ZoomControls.tsx";
import { saveLabel } from "../store/save-state.ts";
import { useEditor } from "../store/use-editor.ts";

// One empty list: a selector answering a fresh [] each time would re-render forever.
const NO_WARNINGS: readonly TemplateWarning[] = [];

/** The editor's bar: back to the templates, the template's name and state, undo, zoom, autosave, export, publish. */
export function TopBar({
  onSignOut,
  onShortcuts,
  onExport,
}: {
  onSignOut(): void;
  onShortcuts(): void;
  onExport(): void;
}) {
  const editor = useEditor();
  const name = useEditor((s) => s.doc.name);
  const key = useEditor((s) => s.doc.key);
  const published = useEditor((s) => s.detail?.published_version ?? null);
  const canUndo = useEditor((s) => s.canUndo);
  const canRedo = useEditor((s) => s.canRedo);
  const zoom = useEditor((s) => s.zoom);
  const rulers = useEditor((s) => s.prefs.rulers);
  const save = useEditor((s) => s.save);
  const fontWarnings = useEditor((s) => s.detail?.warnings ?? NO_WARNINGS);
  return (
    <header className="editor-bar">
      <a className="btn ghost small" href="#/templates" title="All templates">
        ← Templates
      </a>
      <div className="doc-title">
        <h1 className="doc-name">{name}</h1>
        <span className="muted mono small">{key}</span>
        <span className={`badge ${published ? "published" : "draft"}`}>
          {published ? `live v${published}` : "draft"}
        </span>
      </div>
      <div className="bar-group">
        <button
          type="button"
          className="icon-btn"
          title="Undo (Ctrl+Z)"
          disabled={!canUndo}
          onClick={editor.undo}
          data-testid="undo"
        >
          ↶
        </button>
        <button
          type="button"
          className="icon-btn"
          title="Redo (Ctrl+Shift+Z)"
          disabled={!canRedo}
          onClick={editor.redo}
          data-testid="redo"
        >
          ↷
        </button>
      </div>
      <div className="bar-group">
        <button type="button" className="icon-btn" title="Zoom out (-)" onClick={() => editor.zoomStep(-1)}>
          −
        </button>
        <span className="zoom" data-testid="zoom">
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" className="icon-btn" title="Zoom in (+)" onClick={() => editor.zoomStep(1)}>
          +
        </button>
        <ZoomControls
          zoomTo={(what) => editor.zoomTo(what)}
          rulers={rulers}
          onRulers={(show) => editor.setRulers(show)}
        />
      </div>
      <span
        className={`save-state ${typeof save === "object" ? "error" : save}`}
        data-testid="save-state"
        title={typeof save === "object" ? save.error : ""}
      >
        {saveLabel(save)}
      </span>
      {fontWarnings.length > 0 && (
        <span
          className="save-state error"
          role="status"
          data-testid="font-warnings"
          title={fontWarnings.map((w) => w.message).join("\n")}
        >
          ⚠ Unknown font: {fontWarnings.map((w) => w.family).join(", ")}
        </span>
      )}
      <button type="button" className="btn small" data-testid="export" onClick={onExport}>
        Export…
      </button>
      <button
        type="button"
        className="btn primary"
        data-testid="publish"
        onClick={() => editor.setTab("publish")}
      >
        Publish…
      </button>
      <button
        type="button"
        className="icon-btn"
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts"
        onClick={onShortcuts}
      >
        ?
      </button>
      <button type="button" className="btn ghost small" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}
