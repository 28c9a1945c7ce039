import { type ReactNode, useMemo } from "react";
import { NewSlotContext } from "../controls/new-slot.ts";
import type { Layer, SlotT, TemplateDocumentT } from "../engine/engine-types.ts";
import type { KindInfo } from "../layer-forms/types.ts";
import { findLayer, stripUndefined, updateFrame, updateLayer } from "../model/doc-ops.ts";
import { selectedIds } from "../model/selection.ts";
import { slotFromLayer } from "../model/slot-from-layer.ts";
import type { Tab } from "../store/editor-store.ts";
import { useEditor } from "../store/use-editor.ts";
import { GetUrlPanel } from "./GetUrlPanel.tsx";
import { MultiLayerForm } from "./MultiLayerForm.tsx";
import { PreviewPanel } from "./PreviewPanel.tsx";
import { PropertiesPanel } from "./PropertiesPanel.tsx";
import { PublishPanel } from "./PublishPanel.tsx";
import { usePreviewWarnings } from "./preview-warnings.ts";
import { SlotsPanel } from "./SlotsPanel.tsx";
import { TryApiPanel } from "./TryApiPanel.tsx";
import { isNote } from "./warning-kinds.ts";

/** Right of the canvas: the tabs (design, slots, preview, versions, API, Get URL) and the open one. */
export function RightPanel() {
  const editor = useEditor();
  const tab = useEditor((s) => s.tab);
  const doc = useEditor((s) => s.doc);
  const engine = useEditor((s) => s.engine);
  const values = useEditor((s) => s.values);
  const warnScale = useEditor((s) => s.warnScale);
  const inGesture = useEditor((s) => s.inGesture);
  const status = useEditor((s) => s.status);
  const detail = useEditor((s) => s.detail);
  const saved = useEditor((s) => s.save === "saved");

  // Warnings as an API render at the Preview tab's scale reports them (not the zoom's scale).
  const apiWarnings = usePreviewWarnings(engine, doc, values, warnScale, inGesture);
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
    (n, s) => n + s.warnings.filter((w) => !isNote(w)).length + s.imageErrors.length + (s.error ? 1 : 0),
    0,
  );
  // Counts are badges beside the words, and the tabs share the bar's width by their content, so
  // every label shows whole at the panel's width.
  const tabs: [Tab, string, ReactNode?][] = [
    ["design", "Design"],
    ["slots", "Slots", doc.slots.length > 0 && <span className="tab-count">{doc.slots.length}</span>],
    [
      "preview",
      "Preview",
      warningCount > 0 && (
        <span className="tab-count warn" data-testid="warning-count">
          ⚠{warningCount}
        </span>
      ),
    ],
    ["publish", "Versions"],
    ["api", "API"],
    ["url", "Get URL"],
  ];
  const published = detail?.published_version ?? null;

  return (
    <aside className="right" aria-label="Properties, slots and publishing">
      <h2 className="sr-only">Properties, slots and publishing</h2>
      <div className="tabs" role="tablist">
        {tabs.map(([t, label, count]) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tab === t ? "tab active" : "tab"}
            data-testid={`tab-${t}`}
            onClick={() => editor.setTab(t)}
          >
            {label}
            {count}
          </button>
        ))}
      </div>
      <div className="tab-body">
        {tab === "design" && <DesignTab />}
        {tab === "slots" && <SlotsPanel doc={doc} onDoc={(d, key) => editor.setDocument(d, key)} />}
        {tab === "preview" && (
          <PreviewPanel
            doc={doc}
            values={values}
            onValues={(v) => editor.setValues(v)}
            warnings={frameStatuses}
            scale={warnScale}
            onScale={(s) => editor.setWarnScale(s)}
            onSaveSample={() =>
              editor.setDocument({ ...doc, sample: { ...values } as TemplateDocumentT["sample"] })
            }
          />
        )}
        {tab === "publish" && (
          <PublishPanel
            templateId={editor.getState().templateId}
            detail={detail}
            saved={saved}
            saveNow={() => editor.save()}
            onPublished={(d) => editor.setDetail(d)}
            onRestore={(d) => editor.setDocument(d)}
          />
        )}
        {tab === "api" && <TryApiPanel doc={doc} values={values} published={Boolean(published)} />}
        {tab === "url" && (
          <GetUrlPanel
            doc={doc}
            values={values}
            published={Boolean(published)}
            publishedVersion={published}
          />
        )}
      </div>
    </aside>
  );
}

/**
 * The Design tab: the selected layer's properties, the shared properties of several selected layers,
 * or the frame's and the template's.
 */
function DesignTab() {
  const editor = useEditor();
  const doc = useEditor((s) => s.doc);
  const engine = useEditor((s) => s.engine);
  const frameIndex = useEditor((s) =>
    Math.max(0, Math.min(s.selection?.frame ?? 0, s.doc.frames.length - 1)),
  );
  const layer = useEditor(() => editor.selectedLayer());
  const selection = useEditor((s) => s.selection);
  const ids = selectedIds(selection);
  const frame = doc.frames[frameIndex];
  const many =
    ids.length > 1 && frame ? ids.flatMap((id) => findLayer(frame.layers as Layer[], id) ?? []) : [];
  // What the engine's layer registry says about kinds, for the properties forms.
  const kinds = useMemo<KindInfo>(
    () => ({
      bindable: engine?.module.BINDABLE_PROPERTIES ?? {},
      blendModes: engine?.module.BLEND_MODES ?? [],
      animationPresets: engine?.module.ANIMATION_PRESET_KINDS ?? {},
      keyframeProperties: engine?.module.KEYFRAME_PROPERTIES ?? [],
    }),
    [engine],
  );
  if (many.length > 1)
    return (
      <MultiLayerForm
        layers={many}
        onLayers={(patch, key) => {
          let next = editor.getState().doc;
          for (const l of many)
            next = updateLayer(next, frameIndex, l.id, (old) =>
              stripUndefined({ ...old, ...patch } as Layer),
            );
          editor.setDocument(next, `${many.map((l) => l.id).join()}:${key}`);
        }}
      />
    );
  const newSlot = (prop: string, type: SlotT["type"]) => {
    const id = editor.getState().selection?.layer;
    const made = id ? slotFromLayer(editor.getState().doc, frameIndex, id, prop, type) : null;
    if (made) editor.setDocument(made.doc);
  };
  return (
    <NewSlotContext.Provider value={layer ? newSlot : null}>
      <PropertiesPanel
        doc={doc}
        frameIndex={frameIndex}
        layer={layer}
        kinds={kinds}
        onLayer={(patch, key) => {
          const id = editor.getState().selection?.layer;
          if (!id) return;
          const next = updateLayer(editor.getState().doc, frameIndex, id, (l) =>
            stripUndefined({ ...l, ...patch } as Layer),
          );
          editor.setDocument(next, `${id}:${key}`);
        }}
        onFrame={(patch, key) =>
          editor.setDocument(
            updateFrame(editor.getState().doc, frameIndex, (f) => stripUndefined({ ...f, ...patch })),
            `frame${frameIndex}:${key}`,
          )
        }
        onDoc={(patch, key) =>
          editor.setDocument(stripUndefined({ ...editor.getState().doc, ...patch }), key)
        }
        onDeleteFrame={() => editor.deleteFrame(frameIndex)}
      />
    </NewSlotContext.Provider>
  );
}
