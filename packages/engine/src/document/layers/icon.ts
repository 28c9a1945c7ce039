import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import { didYouMean } from "../validate-paths.ts";
import { ICON_NAMES } from "./icon-names.ts";
import { defineLayer } from "./kind.ts";

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

export const iconDefinition = defineLayer<IconLayerT>({
  type: "icon",
  schema: IconLayer,
  bindable: { color: "color" },
  paints: ["color"],
  validate(layer, path) {
    if (KNOWN.has(layer.icon)) return [];
    const hint = didYouMean(layer.icon, ICON_NAMES) || sameWords(layer.icon);
    return [{ path: `${path}.icon`, message: `unknown icon ${JSON.stringify(layer.icon)}${hint}` }];
  },
});

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
