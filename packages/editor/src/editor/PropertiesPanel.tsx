import { useState } from "react";
import type {
  FrameT,
  ImageLayerT,
  Layer,
  ShapeLayerT,
  SlotT,
  TemplateDocumentT,
  TextLayerT,
} from "../engine/engine-types.ts";
import { AssetPicker } from "./AssetPicker.tsx";
import { BindSelect } from "./BindSelect.tsx";
import { CheckField, ColorField, NumberField, SelectField, TextField } from "./fields.tsx";
import { useFontFamilies } from "./font-families.ts";

interface Props {
  doc: TemplateDocumentT;
  frameIndex: number;
  layer: Layer | null;
  onLayer(patch: Partial<Layer>, coalesceKey: string): void;
  onFrame(patch: Partial<FrameT>, coalesceKey: string): void;
  onDoc(patch: Partial<TemplateDocumentT>, coalesceKey: string): void;
  onDeleteFrame(): void;
}

/** Every property of document v1 for the selected layer, or the frame and document when none is. */
export function PropertiesPanel({ doc, frameIndex, layer, onLayer, onFrame, onDoc, onDeleteFrame }: Props) {
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
          <ColorField
            label="Background"
            testId="frame-background"
            nullable
            value={frame.background ?? null}
            onChange={(v) => onFrame(v === null ? { background: undefined } : { background: v }, "frame-bg")}
          />
          <BindSelect
            prop="background"
            type="color"
            slots={doc.slots}
            bind={frame.bind}
            onChange={(bind) => onFrame({ bind }, "frame-bind")}
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
        </section>
      </div>
    );
  }
  return (
    <div className="props">
      <section>
        <h3>
          {layer.type === "shape" ? layer.shape : layer.type}{" "}
          <span className="muted mono small">{layer.id}</span>
        </h3>
        <TextField
          label="Name"
          value={layer.name ?? ""}
          onChange={(v) => onLayer({ name: v === "" ? undefined : v }, "name")}
        />
        <div className="grid2">
          <NumberField
            label="X"
            testId="prop-x"
            value={layer.x}
            onChange={(v) => v !== undefined && onLayer({ x: v }, "x")}
          />
          <NumberField
            label="Y"
            testId="prop-y"
            value={layer.y}
            onChange={(v) => v !== undefined && onLayer({ y: v }, "y")}
          />
          <NumberField
            label="W"
            testId="prop-width"
            value={layer.width}
            min={0}
            onChange={(v) => v !== undefined && onLayer({ width: v }, "w")}
          />
          <NumberField
            label="H"
            testId="prop-height"
            value={layer.height}
            min={0}
            onChange={(v) => v !== undefined && onLayer({ height: v }, "h")}
          />
          <NumberField
            label="Rotate °"
            testId="prop-rotation"
            value={layer.rotation ?? 0}
            onChange={(v) => onLayer({ rotation: v ?? 0 }, "rot")}
          />
          <NumberField
            label="Opacity"
            value={layer.opacity ?? 1}
            min={0}
            max={1}
            step={0.05}
            onChange={(v) => onLayer({ opacity: v ?? 1 }, "opacity")}
          />
        </div>
        <CheckField
          label="Visible"
          value={layer.visible !== false}
          onChange={(v) => onLayer({ visible: v }, "visible")}
        />
      </section>
      {layer.type === "text" && <TextProps doc={doc} layer={layer} onLayer={onLayer} />}
      {layer.type === "image" && <ImageProps slots={doc.slots} layer={layer} onLayer={onLayer} />}
      {layer.type === "shape" && <ShapeProps slots={doc.slots} layer={layer} onLayer={onLayer} />}
      {layer.type === "group" && (
        <section>
          <h3>Group</h3>
          <p className="muted small">{layer.layers.length} layers, positioned relative to the group.</p>
        </section>
      )}
    </div>
  );
}

type LayerPatch = (patch: Partial<Layer>, key: string) => void;

function TextProps({
  doc,
  layer,
  onLayer,
}: {
  doc: TemplateDocumentT;
  layer: TextLayerT;
  onLayer: LayerPatch;
}) {
  const families = useFontFamilies();
  const family = families.find((f) => f.family === layer.font.family);
  const font = (patch: Partial<TextLayerT["font"]>, key: string) =>
    onLayer({ font: { ...layer.font, ...patch } } as Partial<Layer>, key);
  const set = (patch: Partial<TextLayerT>, key: string) => onLayer(patch as Partial<Layer>, key);
  return (
    <section>
      <h3>Text</h3>
      <TextField
        label="Content"
        testId="prop-text"
        multiline
        value={layer.text}
        onChange={(text) => set({ text }, "text")}
      />
      <BindSelect
        prop="text"
        type="text"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <SelectField
        label="Font"
        testId="prop-font-family"
        value={layer.font.family}
        options={families.length ? families.map((f) => f.family) : [layer.font.family]}
        onChange={(familyName) => font({ family: familyName }, "family")}
      />
      <div className="grid2">
        <SelectField
          label="Weight"
          value={String(layer.font.weight ?? 400)}
          options={[...new Set((family?.faces ?? [{ weight: 400 }]).map((f) => String(f.weight)))]}
          onChange={(w) => font({ weight: Number(w) }, "weight")}
        />
        <SelectField
          label="Style"
          value={layer.font.style ?? "normal"}
          options={["normal", "italic"] as const}
          onChange={(style) => font({ style }, "style")}
        />
        <NumberField
          label="Size"
          testId="prop-font-size"
          value={layer.font.size}
          min={0.1}
          max={2000}
          onChange={(v) => v !== undefined && font({ size: v }, "size")}
        />
        <NumberField
          label="Line height"
          value={layer.font.line_height ?? 1.2}
          min={0.1}
          max={10}
          step={0.05}
          onChange={(v) => font({ line_height: v }, "lh")}
        />
        <NumberField
          label="Letter sp."
          value={layer.font.letter_spacing ?? 0}
          min={-100}
          max={1000}
          step={0.5}
          onChange={(v) => font({ letter_spacing: v }, "ls")}
        />
        <NumberField
          label="Max lines"
          value={layer.max_lines}
          optional
          min={1}
          max={1000}
          step={1}
          onChange={(v) => set({ max_lines: v === undefined ? undefined : Math.round(v) }, "maxlines")}
        />
      </div>
      <ColorField
        label="Colour"
        testId="prop-color"
        value={layer.color}
        onChange={(color) => color && set({ color }, "color")}
      />
      <BindSelect
        prop="color"
        type="color"
        slots={doc.slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <div className="grid2">
        <SelectField
          label="Align"
          value={layer.align ?? "left"}
          options={["left", "center", "right", "justify"] as const}
          onChange={(align) => set({ align }, "align")}
        />
        <SelectField
          label="Vertical"
          value={layer.vertical_align ?? "top"}
          options={["top", "middle", "bottom"] as const}
          onChange={(vertical_align) => set({ vertical_align }, "valign")}
        />
        <SelectField
          label="Fit"
          testId="prop-fit"
          value={layer.fit ?? "none"}
          options={["none", "shrink"] as const}
          onChange={(fit) => set({ fit }, "fit")}
        />
        <NumberField
          label="Min size"
          value={layer.min_size}
          optional
          min={0.1}
          max={2000}
          onChange={(v) => set({ min_size: v }, "minsize")}
        />
        <SelectField
          label="Transform"
          value={layer.transform ?? "none"}
          options={["none", "uppercase"] as const}
          onChange={(transform) => set({ transform }, "transform")}
        />
      </div>
    </section>
  );
}

function ImageProps({
  slots,
  layer,
  onLayer,
}: {
  slots: readonly SlotT[];
  layer: ImageLayerT;
  onLayer: LayerPatch;
}) {
  const set = (patch: Partial<ImageLayerT>, key: string) => onLayer(patch as Partial<Layer>, key);
  const focal = layer.focal ?? { x: 0.5, y: 0.5 };
  const [picking, setPicking] = useState(false);
  return (
    <section>
      <h3>Image</h3>
      <button type="button" className="btn small" data-testid="choose-asset" onClick={() => setPicking(true)}>
        Choose from the asset library…
      </button>
      {picking && (
        <AssetPicker
          onClose={() => setPicking(false)}
          onPick={(id) => {
            set({ src: `asset://${id}` }, "src-pick");
            setPicking(false);
          }}
        />
      )}
      <TextField
        label="Source (asset id, asset://…, or https URL)"
        testId="prop-src"
        value={layer.src}
        placeholder="ast_… or https://…"
        onChange={(src) => set({ src: /^ast_[A-Za-z0-9]+$/.test(src) ? `asset://${src}` : src }, "src")}
      />
      <BindSelect
        prop="src"
        type="image"
        slots={slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <div className="grid2">
        <SelectField
          label="Fit"
          value={layer.fit ?? "cover"}
          options={["cover", "contain", "fill"] as const}
          onChange={(fit) => set({ fit }, "fit")}
        />
        <NumberField
          label="Radius"
          value={layer.corner_radius ?? 0}
          min={0}
          onChange={(v) => set({ corner_radius: v ?? 0 }, "radius")}
        />
        <NumberField
          label="Focal X"
          value={focal.x}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => v !== undefined && set({ focal: { ...focal, x: v } }, "fx")}
        />
        <NumberField
          label="Focal Y"
          value={focal.y}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => v !== undefined && set({ focal: { ...focal, y: v } }, "fy")}
        />
      </div>
    </section>
  );
}

function ShapeProps({
  slots,
  layer,
  onLayer,
}: {
  slots: readonly SlotT[];
  layer: ShapeLayerT;
  onLayer: LayerPatch;
}) {
  const set = (patch: Partial<ShapeLayerT>, key: string) => onLayer(patch as Partial<Layer>, key);
  const radius = layer.corner_radius;
  const perCorner = Array.isArray(radius);
  return (
    <section>
      <h3>Shape</h3>
      <SelectField
        label="Shape"
        value={layer.shape}
        options={["rectangle", "ellipse"] as const}
        onChange={(shape) => set({ shape }, "shape")}
      />
      <ColorField
        label="Fill"
        testId="prop-fill"
        nullable
        value={layer.fill}
        onChange={(fill) => set({ fill }, "fill")}
      />
      <BindSelect
        prop="fill"
        type="color"
        slots={slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      <ColorField
        label="Stroke"
        nullable
        value={layer.stroke?.color ?? null}
        onChange={(color) =>
          set({ stroke: color === null ? null : { color, width: layer.stroke?.width ?? 2 } }, "stroke")
        }
      />
      {layer.stroke && (
        <NumberField
          label="Stroke width"
          value={layer.stroke.width}
          min={0.1}
          max={1000}
          onChange={(w) =>
            w !== undefined && layer.stroke && set({ stroke: { ...layer.stroke, width: w } }, "strokew")
          }
        />
      )}
      <BindSelect
        prop="stroke.color"
        type="color"
        slots={slots}
        bind={layer.bind}
        onChange={(bind) => set({ bind }, "bind")}
      />
      {layer.shape === "rectangle" && (
        <>
          <CheckField
            label="Per-corner radius"
            value={perCorner}
            onChange={(on) => {
              const r = typeof radius === "number" ? radius : (radius?.[0] ?? 0);
              set({ corner_radius: on ? [r, r, r, r] : r }, "radius-mode");
            }}
          />
          {perCorner ? (
            <div className="grid2">
              {(["Top left", "Top right", "Bottom right", "Bottom left"] as const).map((label, i) => (
                <NumberField
                  key={label}
                  label={label}
                  value={(radius as number[])[i] ?? 0}
                  min={0}
                  onChange={(v) => {
                    const next = [...(radius as number[])] as [number, number, number, number];
                    next[i] = v ?? 0;
                    set({ corner_radius: next }, `radius${i}`);
                  }}
                />
              ))}
            </div>
          ) : (
            <NumberField
              label="Corner radius"
              value={(radius as number | undefined) ?? 0}
              min={0}
              onChange={(v) => set({ corner_radius: v ?? 0 }, "radius")}
            />
          )}
        </>
      )}
    </section>
  );
}
