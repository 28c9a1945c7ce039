import { type Static, Type as T } from "@sinclair/typebox";
import { layerMotion } from "./animation.ts";

/**
 * Schema pieces shared by every layer kind: colours, paints, bindings and the common layer properties
 * (geometry, opacity, effects, masks, conditions). Each layer type's own schema is in
 * `document/layers/<type>.ts` (its drawing in render/painters/); `schema.ts` assembles the document
 * from the registry.
 */

/** `#RRGGBB` or `#RRGGBBAA` (design values may be translucent; slot values are `#RRGGBB`). */
export const HexColor = T.String({
  pattern: "^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$",
  description: "#RRGGBB or #RRGGBBAA",
});

/** The most items a list slot's value may hold (its `max_items` may only lower it). */
export const MAX_LIST_ITEMS = 100;

export const SlotName = T.String({
  pattern: "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
  description: "Slot name used in modifications",
});

/** Property path of a layer -> slot name (`text`, `fill`, `stroke.color`, `fill.stops[1].color`). */
/** What a binding or condition reads: a slot, or inside a repeated stack a field of its item (`item.name`). */
export const SlotReference = T.String({
  pattern: "^([A-Za-z_][A-Za-z0-9_-]{0,63}|item\\.[A-Za-z_][A-Za-z0-9_]{0,63})$",
  description: "Slot name, or item.<field> inside a repeated stack",
});

export const Bindings = T.Record(T.String({ minLength: 1, maxLength: 64 }), SlotReference);

/**
 * How a colour slot's value is applied where it is bound (slot values are `#RRGGBB`): `alpha` 0..1
 * sets its opacity, or `"design"` (also when absent) keeps the opacity of the design colour it
 * replaces (a translucent brand tint stays translucent); `tint` -1..1 mixes it toward white
 * (positive) or black (negative).
 */
export const ColorBinding = T.Object(
  {
    alpha: T.Optional(
      T.Union([T.Number({ minimum: 0, maximum: 1 }), T.Literal("design")], {
        description:
          'The bound colour\'s opacity 0..1, or "design" (the default): that of the design colour it replaces',
      }),
    ),
    tint: T.Optional(T.Number({ minimum: -1, maximum: 1 })),
  },
  { additionalProperties: false },
);

/** Bound colour property path (a key of `bind`) -> how the slot's colour is applied there. */
export const ColorBindings = T.Record(T.String({ minLength: 1, maxLength: 64 }), ColorBinding);
export type ColorBindingT = Static<typeof ColorBinding>;

export const GradientStop = T.Object(
  {
    /** Position along the gradient, 0..1; stops are in ascending order. */
    offset: T.Number({ minimum: 0, maximum: 1 }),
    color: HexColor,
  },
  { additionalProperties: false },
);

const Stops = T.Array(GradientStop, { minItems: 2, maxItems: 16 });

/**
 * Linear gradient across the box. `angle` follows CSS `linear-gradient`: degrees clockwise from
 * "to top", so 90 runs left to right and 180 (the default) top to bottom; the gradient line is as long
 * as CSS makes it (the box's corners get the first and last colours).
 */
export const LinearGradient = T.Object(
  {
    type: T.Literal("linear"),
    angle: T.Optional(T.Number({ minimum: -360, maximum: 360, default: 180 })),
    stops: Stops,
  },
  { additionalProperties: false },
);

/**
 * Radial gradient. `center` is a point of the box in fractions (0..1 on each axis, default the
 * centre); `radius` is a fraction of the larger side of the box (default 0.5: reaches the edges of a
 * square box), or with `shape: "ellipse"` of each side.
 */
export const RadialGradient = T.Object(
  {
    type: T.Literal("radial"),
    center: T.Optional(
      T.Object(
        { x: T.Number({ minimum: -1, maximum: 2 }), y: T.Number({ minimum: -1, maximum: 2 }) },
        { additionalProperties: false },
      ),
    ),
    radius: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 10, default: 0.5 })),
    /**
     * `circle` (the default): `radius` is a fraction of the box's larger side. `ellipse` (document
     * v3): fitted to the box as CSS draws it, `radius` a fraction of the width across and of the
     * height down (0.5 reaches all four edges from the centre).
     */
    shape: T.Optional(T.Union([T.Literal("circle"), T.Literal("ellipse")], { default: "circle" })),
    stops: Stops,
  },
  { additionalProperties: false },
);

export const PATTERNS = ["dots", "stripes", "grid", "checks"] as const;

/**
 * A built-in pattern repeated across the box (document v3): `dots` (a dot in each tile), `stripes`
 * (a band across each tile), `grid` (lines along the tile's top and left edges) or `checks` (a
 * checkerboard of half-tile squares). `size` is the tile's side in template px; `thickness` the dot's
 * diameter or the line's width as a fraction of it (defaults: dots and stripes 0.5, grid 0.1).
 * `color` draws the pattern over `background` (default transparent). The tiles start at the box's
 * top-left corner moved by `offset` (template px) and turn `angle` degrees clockwise about it.
 */
export const PatternPaint = T.Object(
  {
    type: T.Literal("pattern"),
    pattern: T.Union(PATTERNS.map((pattern) => T.Literal(pattern))),
    color: T.Optional(HexColor),
    background: T.Optional(HexColor),
    size: T.Optional(T.Number({ minimum: 2, maximum: 256, default: 16 })),
    thickness: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 1 })),
    angle: T.Optional(T.Number({ minimum: -360, maximum: 360, default: 0 })),
    offset: T.Optional(
      T.Object(
        {
          x: T.Number({ minimum: -10_000, maximum: 10_000 }),
          y: T.Number({ minimum: -10_000, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * An image repeated across the box (document v3): `image` names it as an image layer's `src` does (an
 * `asset://` of the account's, or a URL), loaded before drawing like any image. Each tile is `size`
 * template px wide and `tile_height` tall (default `size`); the image fills its tile as `fit` says
 * (`cover`, the default, crops it centred; `contain` keeps it whole on a transparent tile; `fill`
 * stretches it). `angle` and `offset` turn and move the tiles as a built-in pattern's.
 */
export const ImagePatternPaint = T.Object(
  {
    type: T.Literal("pattern"),
    image: T.String({ minLength: 1, maxLength: 2048 }),
    size: T.Optional(T.Number({ minimum: 2, maximum: 1024, default: 64 })),
    tile_height: T.Optional(T.Number({ minimum: 2, maximum: 1024 })),
    fit: T.Optional(
      T.Union([T.Literal("cover"), T.Literal("contain"), T.Literal("fill")], { default: "cover" }),
    ),
    angle: T.Optional(T.Number({ minimum: -360, maximum: 360, default: 0 })),
    offset: T.Optional(
      T.Object(
        {
          x: T.Number({ minimum: -10_000, maximum: 10_000 }),
          y: T.Number({ minimum: -10_000, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * What fills something: a solid colour (a plain hex string, as in v1), a gradient, a built-in
 * pattern or an image pattern.
 */
export const Paint = T.Union([HexColor, LinearGradient, RadialGradient, PatternPaint, ImagePatternPaint]);

export const DropShadow = T.Object(
  {
    /** Offset in template pixels. */
    x: T.Number({ minimum: -1000, maximum: 1000 }),
    y: T.Number({ minimum: -1000, maximum: 1000 }),
    /** Blur radius in template pixels (CSS box-shadow blur: sigma = blur / 2). */
    blur: T.Number({ minimum: 0, maximum: 500 }),
    color: HexColor,
  },
  { additionalProperties: false },
);

export const BLEND_MODES = [
  "normal",
  "multiply",
  "screen",
  "overlay",
  "darken",
  "lighten",
  "color-dodge",
  "color-burn",
  "hard-light",
  "soft-light",
  "difference",
  "exclusion",
  "hue",
  "saturation",
  "color",
  "luminosity",
] as const;
export const BlendMode = T.Union(BLEND_MODES.map((mode) => T.Literal(mode)));

/**
 * Soft masks (document v3): the layer shows as much as the mask source is opaque at each point, as
 * CSS `mask-image` does. The source is a gradient over the layer's box (its stops' alpha counts,
 * their colours do not: a photo fading to transparent), turning with the layer, or another layer
 * beside it (the same frame or group; any kind: an image's or a text's alpha) where that layer is
 * drawn, usually hidden with `visible: false`; its own opacity, effects and mask play no part.
 */
const AlphaMasks = [
  T.Object(
    { type: T.Literal("alpha"), gradient: T.Union([LinearGradient, RadialGradient]) },
    { additionalProperties: false },
  ),
  T.Object(
    { type: T.Literal("alpha"), layer: T.String({ minLength: 1, maxLength: 64 }) },
    { additionalProperties: false },
  ),
];

/**
 * Clips the layer (and its effects' source) to a shape in the layer's box: a circle (the largest one
 * centred in the box), an ellipse filling the box, a rounded rectangle, or the outline of another layer
 * beside it, in the same frame or group (a shape, polygon, star or path layer, by id; usually hidden
 * with `visible: false`). Box shapes turn and mirror with the layer; a layer's outline stays where that
 * layer is drawn (render/mask.ts).
 */
export const Mask = T.Union([
  T.Object({ shape: T.Literal("circle") }, { additionalProperties: false }),
  T.Object({ shape: T.Literal("ellipse") }, { additionalProperties: false }),
  T.Object(
    { shape: T.Literal("rounded"), radius: T.Number({ minimum: 0, maximum: 10_000 }) },
    { additionalProperties: false },
  ),
  T.Object({ layer: T.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  ...AlphaMasks,
]);

/**
 * Draws the layer only when a slot's value (the request's, else the slot's default, else empty) is
 * non-empty, empty, or equal to a value. A hidden layer draws nothing, loads nothing and warns nothing.
 */
export const VisibleWhen = T.Union([
  T.Object(
    { slot: SlotReference, is: T.Union([T.Literal("non_empty"), T.Literal("empty")]) },
    { additionalProperties: false },
  ),
  T.Object({ slot: SlotReference, equals: T.String({ maxLength: 10_000 }) }, { additionalProperties: false }),
]);

/** How a layer sizes itself on one axis: its own size, its content's (`hug`), or a share of its stack (`fill`). */
export const Sizing = T.Union([T.Literal("fixed"), T.Literal("hug"), T.Literal("fill")], {
  default: "fixed",
  description:
    "fixed: the layer's own width/height; hug: its content's size (text, stacks), up to max_width/max_height; fill: a share of what its stack has left (inside a stack only)",
});

/**
 * How a layer sizes itself, per axis (both `fixed` when absent). `hug` grows or shrinks the box to
 * its content (a text's lines, a stack's children and padding), never beyond `max_width` /
 * `max_height`; past the maximum a text wraps, shrinks or is cut as its `fit` says. `fill` takes a
 * share of the free space of the stack the layer is in (elsewhere it is the layer's own size).
 */
export const Layout = T.Object(
  {
    width: T.Optional(Sizing),
    height: T.Optional(Sizing),
    max_width: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 100_000 })),
    max_height: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 100_000 })),
  },
  { additionalProperties: false },
);

/**
 * Where a layer stays when its frame is copied to another size (the editor's "copy to size"; a
 * render never reads it): pinned to one edge, to both (it stretches), to the centre, or placed and
 * sized in proportion (`scale`). Absent, the editor infers it from where the layer sits.
 */
export const Constraints = T.Object(
  {
    horizontal: T.Optional(
      T.Union([
        T.Literal("left"),
        T.Literal("right"),
        T.Literal("left_right"),
        T.Literal("center"),
        T.Literal("scale"),
      ]),
    ),
    vertical: T.Optional(
      T.Union([
        T.Literal("top"),
        T.Literal("bottom"),
        T.Literal("top_bottom"),
        T.Literal("center"),
        T.Literal("scale"),
      ]),
    ),
  },
  { additionalProperties: false },
);

export type ConstraintsT = Static<typeof Constraints>;

const PaddingSide = T.Number({ minimum: 0, maximum: 10_000 });

/** Around a container's children, inside its box: one number for every side, or [top, right, bottom, left]. */
export const Padding = T.Union([PaddingSide, T.Tuple([PaddingSide, PaddingSide, PaddingSide, PaddingSide])]);

/** Properties every layer kind has. */
export const layerCommon = {
  id: T.String({ minLength: 1, maxLength: 64 }),
  name: T.Optional(T.String({ maxLength: 200 })),
  x: T.Number(),
  y: T.Number(),
  width: T.Number({ minimum: 0 }),
  height: T.Number({ minimum: 0 }),
  /** Degrees, clockwise, about the layer's centre. */
  rotation: T.Optional(T.Number({ default: 0 })),
  opacity: T.Optional(T.Number({ minimum: 0, maximum: 1, default: 1 })),
  visible: T.Optional(T.Boolean({ default: true })),
  bind: T.Optional(Bindings),
  /** Alpha or tint applied to the colour slots bound in `bind` (property path -> options). */
  bind_colors: T.Optional(ColorBindings),
  /** Mirror the layer about its vertical (flip_x) or horizontal (flip_y) centre line. */
  flip_x: T.Optional(T.Boolean({ default: false })),
  flip_y: T.Optional(T.Boolean({ default: false })),
  /** Drawn beneath the layer, first one lowest. */
  shadows: T.Optional(T.Array(DropShadow, { maxItems: 8 })),
  blend_mode: T.Optional(BlendMode),
  mask: T.Optional(Mask),
  visible_when: T.Optional(VisibleWhen),
  layout: T.Optional(Layout),
  constraints: T.Optional(Constraints),
  /**
   * Gaussian blur of the layer's pixels (its shadows included), standard deviation in template px,
   * as CSS `filter: blur()`. Motion's "blur in" drives it; a design may set it too.
   */
  blur: T.Optional(T.Number({ minimum: 0, maximum: 500, default: 0 })),
  /** Enter and exit effects and keyframes (document/animation.ts); drawn only in animated frames. */
  ...layerMotion,
};

export type HexColorT = Static<typeof HexColor>;
export type GradientStopT = Static<typeof GradientStop>;
export type LinearGradientT = Static<typeof LinearGradient>;
export type RadialGradientT = Static<typeof RadialGradient>;
export type PatternPaintT = Static<typeof PatternPaint>;
export type ImagePatternPaintT = Static<typeof ImagePatternPaint>;
export type PaintT = Static<typeof Paint>;
export type GradientT = LinearGradientT | RadialGradientT;

/** Whether a paint is a gradient (it has stops). */
export function isGradient(value: PaintT | null): value is GradientT {
  return typeof value === "object" && value !== null && value.type !== "pattern";
}

/** The colour that stands for a paint where one colour is needed: its own, a gradient's first stop, a pattern's ink. */
export function leadColor(value: PaintT, fallback: string): string {
  if (typeof value === "string") return value;
  if (isImagePattern(value)) return fallback;
  if (value.type === "pattern") return value.color ?? PATTERN_INK;
  return value.stops[0]?.color ?? fallback;
}

/** Whether a paint is an image pattern (it names an image). */
export function isImagePattern(value: PaintT | null): value is ImagePatternPaintT {
  return typeof value === "object" && value !== null && "image" in value;
}

export const PATTERN_INK = "#000000";
export const PATTERN_BACKGROUND = "#00000000";
export type DropShadowT = Static<typeof DropShadow>;
export type BlendModeT = Static<typeof BlendMode>;
export type MaskT = Static<typeof Mask>;
export type AlphaMaskT = Extract<MaskT, { type: "alpha" }>;

/** Whether a mask is a soft (alpha) mask rather than an outline to clip to. */
export function isAlphaMask(mask: MaskT | undefined): mask is AlphaMaskT {
  return mask !== undefined && "type" in mask;
}
export type VisibleWhenT = Static<typeof VisibleWhen>;
export type SizingT = Static<typeof Sizing>;
export type LayoutT = Static<typeof Layout>;
export type PaddingT = Static<typeof Padding>;

/** The common properties as one object schema (for types; kinds spread `layerCommon` into their own). */
export const LayerCommon = T.Object(layerCommon);
export type LayerCommonT = Static<typeof LayerCommon>;
