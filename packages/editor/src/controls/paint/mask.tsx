import type { Layer, MaskT } from "../../engine/engine-types.ts";
import { NumberField, SelectField } from "../fields.tsx";
import { GradientEditor, type GradientT } from "./gradient.tsx";

type Kind = "none" | "circle" | "ellipse" | "rounded" | "layer" | "fade" | "alpha-layer";

/** Layer kinds whose outline can mask another layer (the engine's validate-masks.ts). */
const OUTLINE_TYPES = new Set(["shape", "polygon", "star", "path"]);

interface Props {
  value: MaskT | undefined;
  /** The layers beside this one (same frame or group): outlines it may be masked by. */
  siblings: readonly Layer[];
  selfId: string;
  onChange(value: MaskT | undefined): void;
}

function kindOf(mask: MaskT | undefined): Kind {
  if (!mask) return "none";
  if ("type" in mask) return "gradient" in mask ? "fade" : "alpha-layer";
  return "layer" in mask ? "layer" : mask.shape;
}

/** A soft mask's first gradient: opaque on the left, transparent on the right. */
const FADE: GradientT = {
  type: "linear",
  angle: 90,
  stops: [
    { offset: 0.5, color: "#000000" },
    { offset: 1, color: "#00000000" },
  ],
};

/**
 * Clips the layer to a circle, an ellipse, a rounded rectangle or another layer's outline, or fades it
 * with a soft mask: a gradient's alpha or another layer's (an image's, a text's).
 */
export function MaskField({ value, siblings, selfId, onChange }: Props) {
  const kind = kindOf(value);
  const outlines = siblings.filter((l) => l.id !== selfId && OUTLINE_TYPES.has(l.type));
  const others = siblings.filter((l) => l.id !== selfId);
  const make = (k: Kind): MaskT | undefined => {
    if (k === "none") return undefined;
    if (k === "rounded") return { shape: "rounded", radius: 24 };
    if (k === "layer") return outlines[0] ? { layer: outlines[0].id } : undefined;
    if (k === "fade") return { type: "alpha", gradient: FADE };
    if (k === "alpha-layer") return others[0] ? { type: "alpha", layer: others[0].id } : undefined;
    return { shape: k };
  };
  return (
    <div className="mask" data-testid="mask">
      <SelectField<Kind>
        label="Mask"
        testId="mask-kind"
        value={kind}
        options={[
          { value: "none", label: "none" },
          { value: "circle", label: "circle" },
          { value: "ellipse", label: "ellipse" },
          { value: "rounded", label: "rounded rectangle" },
          ...(outlines.length > 0 || kind === "layer"
            ? [{ value: "layer" as const, label: "another layer's outline" }]
            : []),
          { value: "fade", label: "soft: gradient fade" },
          ...(others.length > 0 || kind === "alpha-layer"
            ? [{ value: "alpha-layer" as const, label: "soft: another layer's alpha" }]
            : []),
        ]}
        onChange={(k) => onChange(make(k))}
      />
      {value && "shape" in value && value.shape === "rounded" && (
        <NumberField
          label="Mask radius"
          testId="mask-radius"
          value={value.radius}
          min={0}
          max={10_000}
          onChange={(radius) => radius !== undefined && onChange({ shape: "rounded", radius })}
        />
      )}
      {value && "layer" in value && !("type" in value) && (
        <SelectField
          label="Mask layer"
          testId="mask-layer"
          value={value.layer}
          options={[...new Set([value.layer, ...outlines.map((l) => l.id)])]}
          onChange={(layer) => onChange({ layer })}
        />
      )}
      {value && "type" in value && "layer" in value && (
        <SelectField
          label="Mask layer (its alpha)"
          testId="mask-alpha-layer"
          value={value.layer}
          options={[...new Set([value.layer, ...others.map((l) => l.id)])]}
          onChange={(layer) => onChange({ type: "alpha", layer })}
        />
      )}
      {value && "type" in value && "gradient" in value && (
        <GradientEditor
          label="Mask fade (alpha counts)"
          testId="mask-gradient"
          value={value.gradient}
          onChange={(gradient) => onChange({ type: "alpha", gradient })}
        />
      )}
    </div>
  );
}
