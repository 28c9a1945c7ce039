import { type ReactNode, useMemo } from "react";
import { ColorBindingsFields } from "../controls/ColorBindings.tsx";
import { ConstraintFields } from "../controls/ConstraintFields.tsx";
import { FrameMotionFields } from "../controls/FrameMotion.tsx";
import { FramePrintFields } from "../controls/FramePrint.tsx";
import { NumberField, TextField } from "../controls/fields.tsx";
import { InlineStylesEditor } from "../controls/InlineStyles.tsx";
import { PaletteEditor } from "../controls/paint/brand-palette.tsx";
import { PaintEditor } from "../controls/paint/paint.tsx";
import { colorsUsedIn, SwatchesContext } from "../controls/paint/palette.tsx";
import { RepeatItemContext } from "../controls/repeat-item.ts";
import type { FrameT, Layer, TemplateDocumentT } from "../engine/engine-types.ts";
import { CommonForm, EffectsForm } from "../layer-forms/common.tsx";
import { MotionForm } from "../layer-forms/motion.tsx";
import { formOf } from "../layer-forms/registry.ts";
import type { KindInfo } from "../layer-forms/types.ts";
import { childLayers } from "../model/layer-tree.ts";
import { repeatListOf } from "../model/repeat-scope.ts";

/** The list (frame's or group's) holding the layer. */
function siblingsOf(layers: readonly Layer[], id: string): readonly Layer[] {
  if (layers.some((l) => l.id === id)) return layers;
  for (const l of layers) {
    const inner = childLayers(l);
    const found = inner ? siblingsOf(inner, id) : [];
    if (found.length > 0) return found;
  }
  return [];
}

const EMPTY: readonly string[] = [];

interface Props {
  doc: TemplateDocumentT;
  frameIndex: number;
  layer: Layer | null;
  /** The engine's knowledge of layer kinds (bindable properties, blend modes). */
  kinds: KindInfo;
  onLayer(patch: Partial<Layer>, coalesceKey: string): void;
  onFrame(patch: Partial<FrameT>, coalesceKey: string): void;
  onDoc(patch: Partial<TemplateDocumentT>, coalesceKey: string): void;
  onDeleteFrame(): void;
}

/**
 * The selected layer's properties (the common ones, then its kind's form from layer-forms/registry.ts),
 * or the frame and document when no layer is selected.
 */
export function PropertiesPanel({
  doc,
  frameIndex,
  layer,
  kinds,
  onLayer,
  onFrame,
  onDoc,
  onDeleteFrame,
}: Props) {
  const palette = doc.palette ?? EMPTY;
  const used = useMemo(() => colorsUsedIn(doc.frames), [doc.frames]);
  // Upper-cased like the used colours, so a hand-written "#ff0066" and a used "#FF0066" are one swatch.
  const swatches = useMemo(() => ({ palette: palette.map((c) => c.toUpperCase()), used }), [palette, used]);
  // An edit of the document like any other (undo, autosave); each change its own undo step.
  const setPalette = (next: string[]) =>
    onDoc({ palette: next.length > 0 ? next : undefined }, `doc-palette:${next.join()}`);
  return (
    <SwatchesContext.Provider value={swatches}>
      <PanelBody {...{ doc, frameIndex, layer, kinds, onLayer, onFrame, onDoc, onDeleteFrame }}>
        {!layer && <PaletteEditor palette={palette} onChange={setPalette} />}
        {!layer && (
          <InlineStylesEditor
            styles={doc.inline_styles}
            slots={doc.slots}
            onChange={(inline_styles) => onDoc({ inline_styles }, "doc-inline-styles")}
          />
        )}
      </PanelBody>
    </SwatchesContext.Provider>
  );
}

function PanelBody({
  doc,
  frameIndex,
  layer,
  kinds,
  onLayer,
  onFrame,
  onDoc,
  onDeleteFrame,
  children,
}: Props & { children: ReactNode }) {
  const frame = doc.frames[frameIndex];
  if (!frame) return null;
  if (!layer) {
    return (
      <div className="props">
        <section>
          <h3>Frame</h3>
          <TextField
            label="Name"
            testId="frame-name"
            value={frame.name}
            onChange={(name) => onFrame({ name }, "frame-name")}
          />
          <div className="grid2">
            <NumberField
              label="W"
              value={frame.width}
              min={1}
              max={8000}
              step={1}
              onChange={(v) => v !== undefined && onFrame({ width: Math.round(v) }, "frame-w")}
            />
            <NumberField
              label="H"
              value={frame.height}
              min={1}
              max={8000}
              step={1}
              onChange={(v) => v !== undefined && onFrame({ height: Math.round(v) }, "frame-h")}
            />
          </div>
          <PaintEditor
            label="Background"
            testId="frame-background"
            nullable
            value={frame.background ?? null}
            onChange={(v, rebind) =>
              onFrame({ background: v ?? undefined, ...(rebind ? { bind: rebind.bind } : {}) }, "frame-bg")
            }
            bindProp="background"
            slots={doc.slots}
            bind={frame.bind}
            onBind={(bind) => onFrame({ bind }, "frame-bind")}
          />
          <FrameMotionFields frame={frame} onChange={onFrame} />
          <ColorBindingsFields
            bind={frame.bind}
            value={frame.bind_colors}
            slots={doc.slots}
            onChange={(bind_colors) => onFrame({ bind_colors }, "frame-bind-colors")}
          />
          <FramePrintFields
            value={frame.print}
            onChange={(print, size) => onFrame({ print, ...size }, "frame-print")}
          />
          <button
            type="button"
            className="btn small ghost danger"
            disabled={doc.frames.length < 2}
            onClick={onDeleteFrame}
          >
            Delete frame
          </button>
        </section>
        <section>
          <h3>Template</h3>
          <TextField label="Name" value={doc.name} onChange={(name) => onDoc({ name }, "doc-name")} />
          <TextField
            label="Key (used by the API)"
            testId="doc-key"
            value={doc.key}
            onChange={(key) => onDoc({ key }, "doc-key")}
          />
          <TextField
            label="Description"
            multiline
            value={doc.description ?? ""}
            onChange={(d) => onDoc({ description: d === "" ? undefined : d }, "doc-desc")}
          />
          {children}
        </section>
      </div>
    );
  }
  const form = formOf(layer);
  return (
    <div className="props" data-layer-type={layer.type}>
      <CommonForm layer={layer} label={form.label(layer)} onLayer={onLayer} />
      {frame.layers.some((l) => l.id === layer.id) && (
        <ConstraintFields layer={layer} frame={frame} onLayer={onLayer} />
      )}
      <RepeatItemContext.Provider value={repeatListOf(doc, frame.layers, layer.id)}>
        <form.Form doc={doc} layer={layer} onLayer={onLayer} kinds={kinds} />
      </RepeatItemContext.Provider>
      <EffectsForm
        doc={doc}
        layer={layer}
        siblings={siblingsOf(frame.layers, layer.id)}
        onLayer={onLayer}
        kinds={kinds}
      />
      <ColorBindingsFields
        bind={layer.bind}
        value={layer.bind_colors}
        slots={doc.slots}
        onChange={(bind_colors) => onLayer({ bind_colors }, "layer-bind-colors")}
      />
      <MotionForm layer={layer} frame={frame} onLayer={onLayer} kinds={kinds} />
    </div>
  );
}
