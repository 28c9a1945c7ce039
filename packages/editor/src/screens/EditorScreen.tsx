import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiFailure, api, type TemplateDetail } from "../api/client.ts";
import { FrameView, type Tool } from "../canvas/FrameView.tsx";
import { typedInto } from "../canvas/typing-metrics.ts";
import { selectionBounds } from "../canvas/use-frame-gestures.ts";
import { useStageView } from "../canvas/use-stage-view.ts";
import { AddLayerMenu } from "../controls/AddLayerMenu.tsx";
import { ArrangeBar } from "../controls/ArrangeBar.tsx";
import { FramePresets } from "../controls/FramePresets.tsx";
import { forgetLegacyPalette, legacyPalette, withLegacyPalette } from "../controls/paint/brand-palette.tsx";
import { ZoomControls, type ZoomTarget } from "../controls/ZoomControls.tsx";
import type { FrameT, Layer, RenderWarning, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import { type EditorEngine, type FrameRender, loadEditorEngine } from "../engine/load-engine.ts";
import type { KindInfo } from "../layer-forms/types.ts";
import { placeInParent } from "../model/arrange.ts";
import {
  addLayer,
  blankDocument,
  findLayer,
  newLayer,
  uniqueFrameName,
  updateFrame,
  updateLayer,
} from "../model/doc-ops.ts";
import { useHistory } from "../model/history.ts";
import { childLayers } from "../model/layer-tree.ts";
import { resizedFrameCopy } from "../model/resize-design.ts";
import { type Selection, selectedIds } from "../model/selection.ts";
import { GetUrlPanel } from "../panels/GetUrlPanel.tsx";
import { LayersPanel } from "../panels/LayersPanel.tsx";
import { PreviewPanel } from "../panels/PreviewPanel.tsx";
import { PropertiesPanel } from "../panels/PropertiesPanel.tsx";
import { PublishPanel } from "../panels/PublishPanel.tsx";
import { usePreviewWarnings } from "../panels/preview-warnings.ts";
import { SlotsPanel, stripUndefined } from "../panels/SlotsPanel.tsx";
import { TryApiPanel } from "../panels/TryApiPanel.tsx";
import { useArrange } from "../store/use-arrange.ts";
import { useEditorPrefs } from "../store/use-editor-prefs.ts";
import { useShortcuts } from "../store/use-shortcuts.ts";
import { registerEditorBridge } from "../testing/test-hook.ts";

type Tab = "design" | "slots" | "preview" | "publish" | "api" | "url";
type SaveState = "saved" | "dirty" | "saving" | { error: string };

const TOOLS: { tool: Tool; label: string; icon: string; key: string }[] = [
  { tool: "select", label: "Select", icon: "↖", key: "V" },
  { tool: "text", label: "Text", icon: "T", key: "T" },
  { tool: "image", label: "Image", icon: "▣", key: "I" },
  { tool: "rectangle", label: "Rectangle", icon: "■", key: "R" },
  { tool: "ellipse", label: "Ellipse", icon: "●", key: "E" },
];

const ZOOMS = [0.05, 0.1, 0.15, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.5, 2, 3, 4];

/** Largest zoom at which every frame fits side by side in the stage (panel widths from styles.css). */
function fitZoom(frames: readonly FrameT[]): number {
  const gaps = 56 * (frames.length - 1) + 96;
  const width = window.innerWidth - 248 - 320 - gaps;
  const height = window.innerHeight - 48 - 96 - 24;
  const total = frames.reduce((n, f) => n + f.width, 0);
  const tallest = Math.max(...frames.map((f) => f.height), 1);
  const fit = Math.min(width / Math.max(total, 1), height / tallest, 1);
  return Math.max(0.05, Math.floor(fit * 100) / 100);
}

interface FrameStatus {
  frame: FrameT;
  warnings: RenderWarning[];
  imageErrors: string[];
  error: string | null;
}

export function EditorScreen({ templateId, onSignOut }: { templateId: string; onSignOut(): void }) {
  const [engine, setEngine] = useState<EditorEngine | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [detail, setDetail] = useState<TemplateDetail | null>(null);
  const history = useHistory<TemplateDocumentT>(blankDocument("loading", "Loading"));
  const doc = history.present;
  const [loaded, setLoaded] = useState(false);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [tool, setTool] = useState<Tool>("select");
  const [zoom, setZoom] = useState(0.5);
  const [tab, setTab] = useState<Tab>("design");
  const [values, setValues] = useState<SlotValues>({});
  const [save, setSave] = useState<SaveState>("saved");
  const [status, setStatus] = useState<Record<number, FrameStatus>>({});
  const [editing, setEditing] = useState<{ frame: number; id: string } | null>(null);
  const [toFrame, setToFrame] = useState(false);
  const prefs = useEditorPrefs(templateId);
  const stageWrap = useRef<HTMLElement>(null);
  const stageView = useStageView(stageWrap, { zoom, setZoom });
  const savedDoc = useRef<TemplateDocumentT | null>(null);
  /** The browser's legacy palette was merged into the open document and awaits its first save. */
  const migratingPalette = useRef(false);
  const renderWaiters = useRef(new Set<(frameIndex: number, frame: FrameT) => void>());
  const docRef = useRef(doc);
  docRef.current = doc;

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once per template; history.reset is stable
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const [eng, d] = await Promise.all([
          loadEditorEngine(),
          api<TemplateDetail>(`/v1/templates/${encodeURIComponent(templateId)}`),
        ]);
        if (cancelled) return;
        const checked = eng.validate(d.document);
        const document = checked.ok ? checked.document : (d.document as TemplateDocumentT);
        // A palette an earlier editor kept in this browser joins the document's once: opened as part of
        // the document (not an undo step), saved by the autosave, then forgotten by the browser.
        const legacy = legacyPalette(templateId);
        const merged = legacy.length > 0 ? withLegacyPalette(document.palette, legacy) : null;
        if (legacy.length > 0 && merged === null) forgetLegacyPalette(templateId);
        migratingPalette.current = merged !== null;
        setEngine(eng);
        setDetail(d);
        history.reset(merged ? { ...document, palette: merged } : document);
        savedDoc.current = document;
        setValues({ ...(document.sample ?? {}) });
        setSelection({ frame: 0, layer: null });
        setLoaded(true);
        setZoom(fitZoom(document.frames));
      } catch (err) {
        if (!cancelled) setLoadError(err instanceof Error ? err.message : String(err));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [templateId]);

  // Autosave the draft 700 ms after the last change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: saveNow reads the latest document from a ref
  useEffect(() => {
    if (!loaded || doc === savedDoc.current) return;
    setSave("dirty");
    const timer = setTimeout(() => void saveNow(), 700);
    return () => clearTimeout(timer);
  }, [doc, loaded]);

  const saveNow = useCallback(async (): Promise<boolean> => {
    const current = docRef.current;
    if (current === savedDoc.current) return true;
    setSave("saving");
    try {
      const updated = await api<TemplateDetail>(`/v1/templates/${templateId}`, {
        method: "PUT",
        body: { document: current },
      });
      savedDoc.current = current;
      if (migratingPalette.current) {
        migratingPalette.current = false;
        forgetLegacyPalette(templateId);
      }
      setDetail(updated);
      setSave(docRef.current === current ? "saved" : "dirty");
      return true;
    } catch (err) {
      const message =
        err instanceof ApiFailure
          ? ((err.body as { error?: { errors?: { path: string; message: string }[] } })?.error?.errors ?? [])
              .map((e) => `${e.path}: ${e.message}`)
              .join("; ") || err.message
          : String(err);
      setSave({ error: message });
      return false;
    }
  }, [templateId]);

  const frameIndex = Math.min(selection?.frame ?? 0, doc.frames.length - 1);
  const frame = doc.frames[frameIndex];
  const layer = frame && selection?.layer ? findLayer(frame.layers as Layer[], selection.layer) : null;

  const patchLayer = useCallback(
    (patch: Partial<Layer>, key: string) => {
      if (!selection?.layer) return;
      const id = selection.layer;
      history.set(
        updateLayer(docRef.current, frameIndex, id, (l) => stripUndefined({ ...l, ...patch } as Layer)),
        `${id}:${key}`,
      );
    },
    [history, selection, frameIndex],
  );

  const arrange = useArrange({
    history,
    selection,
    setSelection,
    locked: prefs.locked,
    toggleLocked: prefs.toggleLocked,
    toFrame,
  });
  const ids = selectedIds(selection);

  const onRendered = useCallback((fi: number, f: FrameT, out: FrameRender | null, error: string | null) => {
    setStatus((s) => ({
      ...s,
      [fi]: { frame: f, warnings: out?.warnings ?? [], imageErrors: out?.imageErrors ?? [], error },
    }));
    for (const waiter of renderWaiters.current) waiter(fi, f);
  }, []);

  // Test and benchmark bridge: edits go through the same history as the properties panel.
  useEffect(() => {
    registerEditorBridge({
      document: () => docRef.current,
      editLayer(id, patch) {
        const started = performance.now();
        const fi = docRef.current.frames.findIndex((f) => findLayer(f.layers as Layer[], id));
        if (fi < 0) return Promise.reject(new Error(`no layer ${id}`));
        const next = updateLayer(docRef.current, fi, id, (l) => ({ ...l, ...patch }) as Layer);
        const target = next.frames[fi];
        return new Promise<number>((resolve) => {
          const waiter = (i: number, f: FrameT) => {
            if (i === fi && f === target) {
              renderWaiters.current.delete(waiter);
              resolve(performance.now() - started);
            }
          };
          renderWaiters.current.add(waiter);
          history.set(next);
        });
      },
    });
    return () => registerEditorBridge(null);
  }, [history]);

  function create(
    fi: number,
    kind: Exclude<Tool, "select">,
    box: { x: number; y: number; width: number; height: number } | null,
    props?: Partial<Layer>,
  ) {
    const target = doc.frames[fi];
    if (!target) return;
    const made = newLayer(doc, target, kind);
    const placed = { ...made, ...box, ...props } as Layer;
    history.set(addLayer(doc, fi, placed));
    setSelection({ frame: fi, layer: placed.id });
    setTool("select");
    setTab("design");
  }

  function addFrame(width: number, height: number, name: string, from: number | null) {
    const frameName = uniqueFrameName(doc, name);
    const source = from === null ? undefined : doc.frames[from];
    const added = source
      ? resizedFrameCopy(source, frameName, width, height)
      : { name: frameName, width, height, background: "#FFFFFF", layers: [] };
    const frames = [...doc.frames, added];
    history.set({ ...doc, frames });
    // Keep every frame in view, as the new one is placed to the right of the others.
    setZoom(fitZoom(frames));
    setSelection({ frame: doc.frames.length, layer: null });
  }

  const zoomStep = (direction: 1 | -1) =>
    setZoom((z) =>
      direction > 0 ? (ZOOMS.find((v) => v > z) ?? z) : (ZOOMS.filter((v) => v < z).at(-1) ?? z),
    );

  const zoomTo = (what: ZoomTarget) =>
    stageView.zoomTo(
      what,
      fitZoom(doc.frames),
      frame && ids.length > 0 ? selectionBounds(frame, ids) : null,
      frame?.name,
    );

  useShortcuts({
    ...arrange,
    undo: history.undo,
    redo: history.redo,
    save: () => void saveNow(),
    deselect() {
      setTool("select");
      setEditing(null);
      setSelection((s) => (s ? { frame: s.frame, layer: null } : s));
    },
    zoom: zoomStep,
    zoomTo,
    editText() {
      if (layer?.type !== "text" || ids.length !== 1) return false;
      setEditing({ frame: frameIndex, id: layer.id });
      return true;
    },
    tool(key) {
      const t = TOOLS.find((x) => x.key.toLowerCase() === key);
      if (t) setTool(t.tool);
      return t !== undefined;
    },
  });

  // What the engine's layer registry says about kinds, for the properties forms.
  const kinds = useMemo<KindInfo>(
    () => ({
      bindable: engine?.module.BINDABLE_PROPERTIES ?? {},
      blendModes: engine?.module.BLEND_MODES ?? [],
    }),
    [engine],
  );

  // Warnings as an API render at the Preview tab's scale reports them (not the zoom's scale).
  const [warnScale, setWarnScale] = useState(1);
  const apiWarnings = usePreviewWarnings(engine, doc, values, warnScale);
  const frameStatuses = useMemo(
    () =>
      apiWarnings ??
      doc.frames.map((f, i) => ({
        frame: f.name,
        warnings: status[i]?.warnings ?? [],
        imageErrors: status[i]?.imageErrors ?? [],
        error: status[i]?.error ?? null,
      })),
    [apiWarnings, doc.frames, status],
  );
  const warningCount = frameStatuses.reduce(
    (n, s) => n + s.warnings.length + s.imageErrors.length + (s.error ? 1 : 0),
    0,
  );

  if (loadError) {
    return (
      <div className="center-message">
        <p className="error">{loadError}</p>
        <a href="#/templates">Back to templates</a>
      </div>
    );
  }
  if (!engine || !loaded) {
    return (
      <div className="center-message" data-testid="editor-loading">
        <div className="spinner" />
        <p className="muted">Loading the engine and fonts…</p>
      </div>
    );
  }

  return (
    <div className="editor" data-testid="editor">
      <header className="editor-bar">
        <a className="btn ghost small" href="#/templates" title="All templates">
          ← Templates
        </a>
        <div className="doc-title">
          <strong>{doc.name}</strong>
          <span className="muted mono small">{doc.key}</span>
          <span className={`badge ${detail?.published_version ? "published" : "draft"}`}>
            {detail?.published_version ? `live v${detail.published_version}` : "draft"}
          </span>
        </div>
        <div className="bar-group">
          <button
            type="button"
            className="icon-btn"
            title="Undo (Ctrl+Z)"
            disabled={!history.canUndo}
            onClick={history.undo}
            data-testid="undo"
          >
            ↶
          </button>
          <button
            type="button"
            className="icon-btn"
            title="Redo (Ctrl+Shift+Z)"
            disabled={!history.canRedo}
            onClick={history.redo}
            data-testid="redo"
          >
            ↷
          </button>
        </div>
        <div className="bar-group">
          <button type="button" className="icon-btn" title="Zoom out (-)" onClick={() => zoomStep(-1)}>
            −
          </button>
          <span className="zoom" data-testid="zoom">
            {Math.round(zoom * 100)}%
          </span>
          <button type="button" className="icon-btn" title="Zoom in (+)" onClick={() => zoomStep(1)}>
            +
          </button>
          <ZoomControls zoomTo={zoomTo} rulers={prefs.rulers} onRulers={prefs.setRulers} />
        </div>
        <span
          className={`save-state ${typeof save === "object" ? "error" : save}`}
          data-testid="save-state"
          title={typeof save === "object" ? save.error : ""}
        >
          {save === "saved"
            ? "All changes saved"
            : save === "saving"
              ? "Saving…"
              : save === "dirty"
                ? "Unsaved"
                : `Not saved: ${save.error}`}
        </span>
        <button type="button" className="btn primary" data-testid="publish" onClick={() => setTab("publish")}>
          Publish…
        </button>
        <button type="button" className="btn ghost small" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <aside className="left">
        <div className="toolbar" role="toolbar">
          {TOOLS.map((t) => (
            <button
              key={t.tool}
              type="button"
              className={`tool ${tool === t.tool ? "active" : ""}`}
              title={`${t.label} (${t.key})`}
              data-testid={`tool-${t.tool}`}
              onClick={() => setTool(t.tool)}
            >
              <span className="tool-icon">{t.icon}</span>
              <span className="tool-label">{t.label}</span>
            </button>
          ))}
          <AddLayerMenu onAdd={(kind, props) => create(frameIndex, kind, null, props)} />
        </div>
        <div className="panel-title">
          <span>Frames &amp; layers</span>
          <FramePresets frames={doc.frames} onAdd={addFrame} />
        </div>
        <LayersPanel
          frames={doc.frames}
          selection={selection}
          locked={prefs.locked}
          onSelect={(s) => {
            setSelection(s);
            setTab("design");
          }}
          onReorder={(fi, id, to) => history.set(placeInParent(doc, fi, id, to))}
          onToggleVisible={(fi, id) =>
            history.set(updateLayer(doc, fi, id, (l) => ({ ...l, visible: l.visible === false })))
          }
          onToggleLock={(id) => prefs.toggleLocked([id])}
        />
        {ids.length > 0 && (
          <ArrangeBar
            actions={arrange}
            count={ids.length}
            isGroup={ids.some((id) => {
              const l = frame && findLayer(frame.layers as Layer[], id);
              return Boolean(l && childLayers(l));
            })}
            locked={ids.every((id) => prefs.locked.has(id))}
            hidden={ids.every((id) => frame && findLayer(frame.layers as Layer[], id)?.visible === false)}
            toFrame={toFrame}
            onToFrame={setToFrame}
          />
        )}
      </aside>
      <main
        ref={stageWrap}
        className={`stage-wrap ${stageView.panning ? "panning" : ""}`}
        onPointerDown={(e) =>
          e.target === e.currentTarget && setSelection((s) => (s ? { frame: s.frame, layer: null } : s))
        }
      >
        <div className="stage">
          {doc.frames.map((f, i) => (
            <FrameView
              key={f.name}
              engine={engine}
              doc={doc}
              frameIndex={i}
              frame={f}
              values={values}
              zoom={zoom}
              tool={tool}
              selection={selection}
              locked={prefs.locked}
              guides={prefs.guidesOf(f.name)}
              showRulers={prefs.rulers}
              editing={editing?.frame === i ? editing.id : null}
              onGuides={(fi, g) => prefs.setGuides(doc.frames[fi]?.name ?? "", g)}
              onSelect={(s) => {
                setSelection(s);
                if (editing && (s.frame !== editing.frame || s.layer !== editing.id)) setEditing(null);
                if (tab !== "preview" && tab !== "api" && tab !== "url") setTab("design");
              }}
              onPreviewBoxes={arrange.previewBoxes}
              onCommit={history.commit}
              onCancel={history.cancel}
              onCreate={create}
              onRendered={onRendered}
              onEditText={(fi, id) => setEditing(id ? { frame: fi, id } : null)}
              onText={(fi, id, text, at) => {
                const next = updateLayer(docRef.current, fi, id, (l) => ({ ...l, text }) as Layer);
                const target = next.frames[fi];
                if (target) typedInto(target, at);
                history.set(next, `${id}:text`);
              }}
            />
          ))}
        </div>
      </main>
      <aside className="right">
        <div className="tabs" role="tablist">
          {(
            [
              ["design", "Design"],
              ["slots", `Slots ${doc.slots.length ? `(${doc.slots.length})` : ""}`],
              ["preview", `Preview${warningCount ? ` ⚠${warningCount}` : ""}`],
              ["publish", "Versions"],
              ["api", "API"],
              ["url", "Get URL"],
            ] as [Tab, string][]
          ).map(([t, label]) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              className={tab === t ? "tab active" : "tab"}
              data-testid={`tab-${t}`}
              onClick={() => setTab(t)}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="tab-body">
          {tab === "design" && (
            <PropertiesPanel
              doc={doc}
              frameIndex={frameIndex}
              layer={layer}
              kinds={kinds}
              onLayer={patchLayer}
              onFrame={(patch, key) =>
                history.set(
                  updateFrame(doc, frameIndex, (f) => stripUndefined({ ...f, ...patch })),
                  `frame${frameIndex}:${key}`,
                )
              }
              onDoc={(patch, key) => history.set(stripUndefined({ ...doc, ...patch }), key)}
              onDeleteFrame={() => {
                history.set({ ...doc, frames: doc.frames.filter((_, i) => i !== frameIndex) });
                setSelection({ frame: 0, layer: null });
              }}
            />
          )}
          {tab === "slots" && <SlotsPanel doc={doc} onDoc={(d, key) => history.set(d, key)} />}
          {tab === "preview" && (
            <PreviewPanel
              doc={doc}
              values={values}
              onValues={setValues}
              warnings={frameStatuses}
              scale={warnScale}
              onScale={setWarnScale}
              onSaveSample={() => history.set({ ...doc, sample: { ...values } })}
            />
          )}
          {tab === "publish" && (
            <PublishPanel
              templateId={templateId}
              detail={detail}
              saveNow={saveNow}
              onPublished={setDetail}
              onRestore={(d) => history.set(d)}
            />
          )}
          {tab === "api" && (
            <TryApiPanel doc={doc} values={values} published={Boolean(detail?.published_version)} />
          )}
          {tab === "url" && (
            <GetUrlPanel
              doc={doc}
              values={values}
              published={Boolean(detail?.published_version)}
              publishedVersion={detail?.published_version ?? null}
            />
          )}
        </div>
      </aside>
    </div>
  );
}
