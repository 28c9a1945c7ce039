import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import { joinPath, type ValidationError } from "../validate-paths.ts";
import { DUOTONE_BINDABLE, ImageFilters } from "./image-filters.ts";
import { defineLayer } from "./kind.ts";

/**
 * An image layer's border: `width` template px drawn inside the edge of what shows of the image, so
 * it follows the layer's mask when there is one (a ring round a circle avatar), else the box with the
 * image's `corner_radius`. `color` is a Paint (gradients run across the box), bindable as
 * `border.color`.
 */
export const ImageBorder = T.Object(
  { width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }), color: Paint },
  { additionalProperties: false },
);

export type ImageBorderT = Static<typeof ImageBorder>;

export const ImageAlign = T.Object(
  {
    x: T.Optional(
      T.Union([T.Literal("left"), T.Literal("center"), T.Literal("right")], { default: "center" }),
    ),
    y: T.Optional(
      T.Union([T.Literal("top"), T.Literal("center"), T.Literal("bottom")], { default: "center" }),
    ),
  },
  { additionalProperties: false },
);

export type ImageAlignT = Static<typeof ImageAlign>;

/**
 * Bindable properties: `src`, `border.color` (and its gradient stop colours), `filters.duotone.dark`
 * and `filters.duotone.light`. `filters`: image-filters.ts.
 */
export const ImageLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("image"),
    /** URL or asset reference; "" draws nothing. */
    src: T.String({ maxLength: 2048 }),
    fit: T.Optional(
      T.Union([T.Literal("cover"), T.Literal("contain"), T.Literal("fill")], { default: "cover" }),
    ),
    /** Point of the source image kept in view when `cover` crops, 0..1 on each axis. */
    focal: T.Optional(
      T.Object(
        { x: T.Number({ minimum: 0, maximum: 1 }), y: T.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    /**
     * Where the picture sits in its box: with `contain`, the side or corner the fitted image keeps
     * to (a square logo against the text margin); with `cover`, the side the crop keeps when `focal`
     * is absent (`left` keeps the left edge, as focal x 0 does). Each axis defaults to `center`.
     */
    align: T.Optional(ImageAlign),
    corner_radius: T.Optional(T.Number({ minimum: 0, default: 0 })),
    border: T.Optional(ImageBorder),
    filters: T.Optional(ImageFilters),
  },
  { additionalProperties: false },
);

export type ImageLayerT = Static<typeof ImageLayer>;

export const imageDefinition = defineLayer<ImageLayerT>({
  type: "image",
  schema: ImageLayer,
  bindable: { src: "image", "border.color": "color", ...DUOTONE_BINDABLE },
  paints: ["border.color"],
  keepsSize: true,
  validate(layer, path) {
    const errors: ValidationError[] = [];
    const bound = (property: string, missing: boolean, what: string) => {
      if (layer.bind?.[property] !== undefined && missing) {
        errors.push({
          path: joinPath(joinPath(path, "bind"), property),
          message: `is bound, but the layer has no ${what}`,
        });
      }
    };
    bound("border.color", layer.border === undefined, 'border to colour (add "border")');
    const noDuotone = layer.filters?.duotone === undefined;
    bound("filters.duotone.dark", noDuotone, 'duotone filter (add "filters.duotone")');
    bound("filters.duotone.light", noDuotone, 'duotone filter (add "filters.duotone")');
    // A duotone maps luminance to opaque colours (a colour matrix cannot fade toward the image by a
    // varying alpha): its bound colours take a tint, and keep the literal's opacity.
    for (const which of ["dark", "light"]) {
      const alpha = layer.bind_colors?.[`filters.duotone.${which}`]?.alpha;
      if (typeof alpha === "number" && alpha !== 1) {
        errors.push({
          path: joinPath(joinPath(joinPath(path, "bind_colors"), `filters.duotone.${which}`), "alpha"),
          message: 'must be 1 or "design": duotone colours are opaque (use a tint)',
        });
      }
    }
    return errors;
  },
});
