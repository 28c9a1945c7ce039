import { CheckField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import { ConditionField } from "../controls/paint/condition.tsx";
import { MaskField } from "../controls/paint/mask.tsx";
import { ShadowList } from "../controls/paint/shadows.tsx";
import type { Layer, LayoutT, TemplateDocumentT } from "../engine/engine-types.ts";
import type { KindInfo, LayerPatch } from "./types.ts";

/** Properties every layer has (the engine's `layerCommon`): edited here, whatever the layer's kind. */
export const COMMON_KEYS: ReadonlySet<string> = new Set([
  "id",
  "type",
  "name",
  "x",
  "y",
  "width",
  "height",
  "rotation",
  "opacity",
  "visible",
  "bind",
  "flip_x",
  "flip_y",
  "shadows",
  "blend_mode",
  "mask",
  "visible_when",
  "layout",
  "constraints",
  "blur",
  "animations",
  "keyframes",
]);

type BlendMode = NonNullable<Layer["blend_mode"]>;

interface Props {
  layer: Layer;
  label: string;
  onLayer: LayerPatch;
  kinds: KindInfo;
}

interface EffectsProps {
  doc: TemplateDocumentT;
  layer: Layer;
  /** The layers of the same frame or group (candidates for a mask outline). */
  siblings: readonly Layer[];
  onLayer: LayerPatch;
  kinds: KindInfo;
}

/** Name, box, rotation, opacity and visibility. */
export function CommonForm({ layer, label, onLayer }: Omit<Props, "kinds">) {
  return (
    <section>
      <h3>
        {label} <span className="muted mono small">{layer.id}</span>
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
          testId="prop-opacity"
          value={layer.opacity ?? 1}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => onLayer({ opacity: v ?? 1 }, "opacity")}
        />
      </div>
      <CheckField
        label="Visible"
        testId="prop-visible"
        value={layer.visible !== false}
        onChange={(v) => onLayer({ visible: v }, "visible")}
      />
      <LayoutFields layer={layer} onLayer={onLayer} />
    </section>
  );
}

const SIZINGS = [
  { value: "fixed", label: "Fixed" },
  { value: "hug", label: "Hug content" },
  { value: "fill", label: "Fill stack" },
] as const;

/**
 * How the layer sizes itself on each axis (the engine's `layout`): its own width/height, its
 * content's (text, stacks, groups) up to a maximum, or a share of the stack it is in.
 */
function LayoutFields({ layer, onLayer }: { layer: Layer; onLayer: LayerPatch }) {
  const layout = layer.layout ?? {};
  const set = (patch: Partial<LayoutT>, key: string) => {
    const next: Record<string, unknown> = { ...layout, ...patch };
    for (const [k, v] of Object.entries(next)) if (v === undefined || v === "fixed") delete next[k];
    onLayer({ layout: Object.keys(next).length === 0 ? undefined : (next as LayoutT) }, key);
  };
  const hugs = layout.width === "hug" || layout.height === "hug";
  return (
    <div className="grid2">
      <SelectField
        label="Width"
        testId="prop-layout-width"
        value={layout.width ?? "fixed"}
        options={SIZINGS}
        onChange={(width) => set({ width }, "layout-w")}
      />
      <SelectField
        label="Height"
        testId="prop-layout-height"
        value={layout.height ?? "fixed"}
        options={SIZINGS}
        onChange={(height) => set({ height }, "layout-h")}
      />
      {hugs && (
        <>
          <NumberField
            label="Max width"
            testId="prop-layout-max-width"
            value={layout.max_width}
            min={1}
            optional
            onChange={(max_width) => set({ max_width }, "layout-max-w")}
          />
          <NumberField
            label="Max height"
            testId="prop-layout-max-height"
            value={layout.max_height}
            min={1}
            optional
            onChange={(max_height) => set({ max_height }, "layout-max-h")}
          />
        </>
      )}
    </div>
  );
}

/**
 * Document v2's common effects: flips, blend mode, drop shadows, mask and the `visible_when`
 * condition, for every layer kind (controls in paint-controls/).
 */
export function EffectsForm({ doc, layer, siblings, onLayer, kinds }: EffectsProps) {
  return (
    <section>
      <h3>Effects</h3>
      <div className="grid2">
        <CheckField
          label="Flip horizontally"
          testId="prop-flip-x"
          value={layer.flip_x === true}
          onChange={(v) => onLayer({ flip_x: v ? true : undefined }, "flipx")}
        />
        <CheckField
          label="Flip vertically"
          testId="prop-flip-y"
          value={layer.flip_y === true}
          onChange={(v) => onLayer({ flip_y: v ? true : undefined }, "flipy")}
        />
      </div>
      {kinds.blendModes.length > 0 && (
        <SelectField
          label="Blend mode"
          testId="prop-blend-mode"
          value={layer.blend_mode ?? "normal"}
          options={kinds.blendModes as readonly BlendMode[]}
          onChange={(mode) => onLayer({ blend_mode: mode === "normal" ? undefined : mode }, "blend")}
        />
      )}
      <ShadowList value={layer.shadows} onChange={(shadows) => onLayer({ shadows }, "shadows")} />
      <MaskField
        value={layer.mask}
        siblings={siblings}
        selfId={layer.id}
        onChange={(mask) => onLayer({ mask }, "mask")}
      />
      <ConditionField
        value={layer.visible_when}
        slots={doc.slots}
        onChange={(visible_when) => onLayer({ visible_when }, "visible-when")}
      />
    </section>
  );
}
