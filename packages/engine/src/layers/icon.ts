import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../document/common.ts";
import { didYouMean } from "../document/validate-paths.ts";
import type { PaintContext } from "../render/context.ts";
import { EngineError } from "../render/errors.ts";
import { ICON_GRID } from "../render/icons.ts";
import { applyPaint, resolvePaint } from "../render/paint.ts";
import { ICON_NAMES, ICON_SET } from "./icon-names.ts";
import { defineLayerKind } from "./kind.ts";

/**
 * An icon of the shipped Lucide set (`icon`: its name, e.g. "heart"; see lucide.dev), drawn as Lucide
 * draws it (stroked, round caps and joins) in `color`, scaled into the box keeping its square aspect
 * and centred. `stroke_width` is in the icon's 24-unit grid, as Lucide's `stroke-width` (default 2),
 * so it grows with the icon. Bindable: `color` (and its gradient stop colours; a gradient runs across
 * the layer's box). The host supplies the icon data (EngineSetup.icons); validation knows the names.
 */
export const IconLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("icon"),
    icon: T.String({ minLength: 1, maxLength: 64 }),
    color: Paint,
    stroke_width: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 12, default: 2 })),
  },
  { additionalProperties: false },
);

export type IconLayerT = Static<typeof IconLayer>;

const KNOWN = new Set(ICON_NAMES);
const DEFAULT_STROKE_WIDTH = 2;

export const iconKind = defineLayerKind<IconLayerT>({
  type: "icon",
  schema: IconLayer,
  bindable: { color: "color" },
  paints: ["color"],
  paint: paintIcon,
  // Lucide keeps strokes on the grid's inner 20 units; wider strokes may reach past the box.
  overhang: (layer) =>
    Math.ceil(((layer.stroke_width ?? DEFAULT_STROKE_WIDTH) / 2) * (iconSize(layer) / ICON_GRID)) + 1,
  validate(layer, path) {
    if (KNOWN.has(layer.icon)) return [];
    const hint = didYouMean(layer.icon, ICON_NAMES) || sameWords(layer.icon);
    return [{ path: `${path}.icon`, message: `unknown icon ${JSON.stringify(layer.icon)}${hint}` }];
  },
});

/** The drawn square: the box's shorter side. */
function iconSize(layer: IconLayerT): number {
  return Math.min(layer.width, layer.height);
}

/** Lucide renamed many icons by reordering words ("alert-circle" is now "circle-alert"). */
function sameWords(name: string): string {
  const words = (value: string) =>
    value
      .toLowerCase()
      .split(/[-_\s]+/)
      .sort()
      .join("-");
  const wanted = words(name);
  const match = ICON_NAMES.find((candidate) => words(candidate) === wanted);
  return match === undefined ? "" : ` (did you mean ${JSON.stringify(match)}?)`;
}

function paintIcon(ctx: PaintContext, layer: IconLayerT, path: string): void {
  const { ck, canvas, paint } = ctx;
  if (!ctx.icons.has(layer.icon)) {
    throw new EngineError(
      "icon_unavailable",
      `${path}.icon`,
      `the host supplied no data for icon ${JSON.stringify(layer.icon)} (the engine needs ${ICON_SET}'s icon-nodes.json)`,
    );
  }
  const size = iconSize(layer);
  const outline = ctx.icons.outline(layer.icon, layer.stroke_width ?? DEFAULT_STROKE_WIDTH, size, ctx.scale);
  if (outline === null) return;
  const color = resolvePaint(ctx.bindings, layer.bind, "color", layer.color, `${path}.color`, layer.id);
  const left = layer.x + (layer.width - size) / 2;
  const top = layer.y + (layer.height - size) / 2;
  const saved = canvas.save();
  canvas.translate(left, top);
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Fill);
  const box = { x: layer.x - left, y: layer.y - top, width: layer.width, height: layer.height };
  const release = applyPaint(ck, paint, color.value, color.path, box);
  canvas.drawPath(outline, paint);
  release();
  canvas.restoreToCount(saved);
}
