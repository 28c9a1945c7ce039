import type { TemplateDocumentT } from "./document/schema.ts";

/**
 * The engine's contract with its hosts (Node, the browser editor). The engine does no I/O: the host
 * supplies the CanvasKit instance, font bytes and image pixels already prepared for the exact device
 * box; the engine returns pixels and warnings.
 */

export type FontStyle = "normal" | "italic";

export interface FontFace {
  family: string;
  weight: number;
  style: FontStyle;
  bytes: Uint8Array;
}

export interface FontSet {
  faces: FontFace[];
  /**
   * Families tried, in order, for characters the layer's own family lacks (scripts, emoji). Nothing
   * else is ever consulted (no system fonts), so this list alone decides what a missing glyph becomes,
   * identically in Node and in the browser.
   */
  fallback: string[];
  /**
   * A family designed for one script only → the family designed to go with it for the rest (digits,
   * Latin punctuation: Noto Sans for Noto Sans Hebrew). The companion is tried first for what the
   * family lacks, and what it draws is not reported as a fallback (`glyph_fallback`).
   */
  companions?: Readonly<Record<string, string>>;
  /**
   * Families whose faces the host supplies only when a render needs them (a Latin-only template
   * never pays for CJK), with what they cover so the engine can tell without loading them. Before a
   * paragraph is laid out the engine loads, through `load`, the layer's family and its companion and
   * every family of the paragraph's list that would draw one of its characters, so what is drawn is
   * exactly what the same faces registered up front draw (same families, same fallback order).
   */
  deferred?: readonly DeferredFontFamily[];
}

/**
 * Sorted, disjoint inclusive code point ranges as pairs: `[first0, last0, first1, last1, ...]`.
 */
export type CodePointRanges = Uint32Array;

export interface DeferredFontFamily {
  family: string;
  /** Code points at least one face of the family maps to a glyph (its `cmap`). */
  anyFace: CodePointRanges;
  /** Code points every face of the family maps to a glyph. */
  everyFace: CodePointRanges;
  /** Every face of the family, called (synchronously) the first time a render needs one. */
  load(): FontFace[];
}

/**
 * One element of an icon drawn on a 24x24 grid, exactly as in Lucide's `icon-nodes.json`: a tag
 * (`path`, `circle`, `ellipse`, `rect`, `line`, `polyline`, `polygon`) and its SVG attributes as
 * strings (`["circle", { cx: "12", cy: "12", r: "10" }]`). Elements are stroked; one with a `fill`
 * other than `none` is filled too.
 */
export type IconElement = readonly [tag: string, attributes: Readonly<Record<string, string>>];
export type IconShape = readonly IconElement[];

/**
 * Icon data the host supplies (the engine does no I/O): Node and the browser both parse the same
 * `lucide-static/icon-nodes.json` and pass it through `iconSetFromNodes`, so both draw the same icons.
 */
export interface IconSet {
  get(name: string): IconShape | undefined;
}

/** One item of a list slot's value: field name -> text (text, image and colour fields) or number. */
export type ListItemValue = Readonly<Record<string, string | number>>;

/**
 * One slot's value: text for text slots, an image reference for image slots, `#RRGGBB` for colours,
 * ISO 8601 text for dates, a finite number for number slots, the items for list slots.
 */
export type SlotValue = string | number | readonly ListItemValue[];

/** Slot name -> value. */
export type SlotValues = Readonly<Record<string, SlotValue>>;

export type ImageFit = "cover" | "contain" | "fill";

/**
 * An image the host must prepare before rendering: the source resolved from the document and slot
 * values, and the exact device-pixel box (already multiplied by the scale and rounded).
 */
export interface ImageRequest {
  /** Stable cache key: same key, same pixels. */
  key: string;
  src: string;
  /** Slot the source came from, if bound (for warnings and errors). */
  slot: string | null;
  width: number;
  height: number;
  fit: ImageFit;
  /**
   * 0..1 on each axis. `cover`: the source point kept in view. `contain`: where the fitted image sits
   * in the box (0 left/top, 0.5 centred, 1 right/bottom). Unused by `fill`.
   */
  focal: { x: number; y: number };
}

/**
 * Pixels for one ImageRequest: straight (non-premultiplied) RGBA, sRGB, exactly `width` x `height` of
 * the request (for `contain`, the fitted image placed by `focal` on a transparent box). Drawn 1:1.
 */
export interface PreparedImage {
  width: number;
  height: number;
  rgba: Uint8Array;
  /** True when the source had fewer pixels than the box needed (warning `image_upscaled`). */
  upscaled: boolean;
  /** How many times the source's pixels were enlarged to fill the box (1 or less: not enlarged). */
  enlargement?: number;
}

export interface RenderOptions {
  /** Frame name; default the document's first frame. */
  frame?: string;
  values?: SlotValues;
  /** 1 to 4, fractional allowed. Output size is round(frame size x scale). */
  scale?: number;
  /**
   * Seconds into an animated frame (one with a `duration`): the frame as it stands then. Default its
   * poster moment (the end of its enter animations). Frames that do not move ignore it.
   */
  time?: number;
}

/**
 * A text layer's words where the render drew them, for a PDF's invisible, selectable text: the
 * axis-aligned bounds of the layer's box (turned boxes included) in output pixels, and the font size
 * in output pixels.
 */
export interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  size: number;
}

export interface RenderInput extends RenderOptions {
  /** Also list the words of the text layers drawn (`RenderResult.texts`), in paint order. */
  collectText?: boolean;
  /** ImageRequest.key -> prepared pixels. A missing entry draws nothing for that layer. */
  images?: ReadonlyMap<string, PreparedImage>;
}

export type WarningCode =
  | "text_shrunk"
  | "text_truncated"
  | "image_upscaled"
  | "glyph_fallback"
  | "font_missing"
  | "font_synthesized"
  | "slot_default_used";

export interface RenderWarning {
  code: WarningCode;
  /** The slot concerned, when the affected property is bound to one. */
  slot: string | null;
  /** The layer concerned, when there is one. */
  layer: string | null;
  message: string;
  /**
   * The measured figures behind the warning, for reports (preflight): `text_shrunk` from_px, to_px;
   * `text_truncated` lines; `image_upscaled` factor (when the host knows it); `glyph_fallback`
   * family (as the layer names it), characters (those it lacks) and fallback_families (those that
   * have them, in the order tried); `font_missing` (the family is not in the font set at all: the
   * fallback families drew the whole text) family, characters and fallback_families alike;
   * `font_synthesized` (the family has no face of a weight or style the text asks for, and the
   * nearest face was faked bold or slanted) family, weight, style, face_weight, face_style and
   * synthesized (`bold`, `italic`).
   */
  details?: Record<string, number | string | string[]>;
}

export interface RenderResult {
  width: number;
  height: number;
  /**
   * RGBA8888, premultiplied alpha (equal to straight RGBA wherever a pixel is opaque). `opaque` is true
   * when every pixel is opaque, so encoders may drop alpha.
   */
  pixels: Uint8Array;
  premultiplied: true;
  opaque: boolean;
  warnings: RenderWarning[];
  /**
   * Where layout put layers (a stack's children, boxes that hug their content), by layer id: each box
   * in its parent's coordinates, as drawn. The editor draws its selection on these; layers laid out
   * by nothing are not listed.
   */
  boxes: Readonly<Record<string, LayerBox>>;
  /** With `collectText`: the text layers' words and where they were drawn. */
  texts?: DrawnText[];
}

/** A layer's box as drawn (template px, in its parent's coordinates). */
export interface LayerBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Engine {
  /** Images the host must prepare for this render. Pure; no drawing. */
  planImages(document: TemplateDocumentT, options: RenderOptions): ImageRequest[];
  /**
   * Draw one frame. `pixels` is a view of engine-owned memory that stays valid until the next call to
   * `render` or `dispose` on this engine; copy it to keep it.
   */
  render(document: TemplateDocumentT, input: RenderInput): RenderResult;
  /**
   * Adds faces beyond the FontSet the engine was created with (a host's uploaded fonts), under family
   * names not used before. The faces stay registered for the engine's life.
   */
  registerFonts(faces: readonly FontFace[]): void;
  dispose(): void;
}
