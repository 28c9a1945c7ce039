import type {
  FrameT,
  GroupLayerT,
  IconLayerT,
  ImageLayerT,
  Layer,
  LineLayerT,
  PathLayerT,
  PolygonLayerT,
  ShapeLayerT,
  SlotT,
  StackLayerT,
  StarLayerT,
  TemplateDocumentT,
  TextLayerT,
} from "@pictor/engine";

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

export function textLayer(
  fields: Optional<TextLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "font" | "color">,
): TextLayerT {
  return {
    id: "text",
    type: "text",
    x: 20,
    y: 20,
    width: 360,
    height: 160,
    color: "#111111",
    ...fields,
    font: { family: "Inter", size: 32, ...fields.font },
  };
}

export function shapeLayer(
  fields: Optional<ShapeLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "shape" | "fill">,
): ShapeLayerT {
  return {
    id: "shape",
    type: "shape",
    shape: "rectangle",
    x: 20,
    y: 20,
    width: 160,
    height: 100,
    fill: "#E63946",
    ...fields,
  };
}

export function imageLayer(
  fields: Optional<ImageLayerT, "id" | "type" | "x" | "y" | "width" | "height">,
): ImageLayerT {
  return { id: "image", type: "image", x: 20, y: 20, width: 160, height: 100, ...fields };
}

export function lineLayer(
  fields: Optional<LineLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "stroke">,
): LineLayerT {
  return {
    id: "line",
    type: "line",
    x: 20,
    y: 20,
    width: 160,
    height: 100,
    stroke: { color: "#1D3557", width: 4 },
    ...fields,
  };
}

export function polygonLayer(
  fields: Optional<PolygonLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "sides" | "fill">,
): PolygonLayerT {
  return {
    id: "polygon",
    type: "polygon",
    x: 20,
    y: 20,
    width: 100,
    height: 100,
    sides: 6,
    fill: "#E63946",
    ...fields,
  };
}

export function starLayer(
  fields: Optional<StarLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "points" | "fill">,
): StarLayerT {
  return {
    id: "star",
    type: "star",
    x: 20,
    y: 20,
    width: 100,
    height: 100,
    points: 5,
    fill: "#F4A261",
    ...fields,
  };
}

export function pathLayer(
  fields: Optional<PathLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "fill">,
): PathLayerT {
  return { id: "path", type: "path", x: 20, y: 20, width: 100, height: 100, fill: "#264653", ...fields };
}

export function iconLayer(
  fields: Optional<IconLayerT, "id" | "type" | "x" | "y" | "width" | "height" | "icon" | "color">,
): IconLayerT {
  return {
    id: "icon",
    type: "icon",
    x: 20,
    y: 20,
    width: 64,
    height: 64,
    icon: "heart",
    color: "#111111",
    ...fields,
  };
}

export function groupLayer(
  fields: Optional<GroupLayerT, "id" | "type" | "x" | "y" | "width" | "height">,
): GroupLayerT {
  return { id: "group", type: "group", x: 0, y: 0, width: 200, height: 200, ...fields };
}

export function stackLayer(
  fields: Optional<StackLayerT, "id" | "type" | "x" | "y" | "width" | "height">,
): StackLayerT {
  return { id: "stack", type: "stack", x: 0, y: 0, width: 200, height: 200, ...fields };
}

export interface DocumentOptions {
  width?: number;
  height?: number;
  background?: FrameT["background"];
  frameBind?: Record<string, string>;
  slots?: SlotT[];
  frames?: FrameT[];
}

/**
 * The version goldens' documents are written in: the one they were recorded with before document v3.
 * expectGolden migrates each to the current version before drawing, so every golden also proves that
 * the migrations draw the very same bytes (the v2 -> v3 step only sets the version; the v3 -> v4 step
 * writes `"alpha": 1` for each colour binding, the opaque slot colour every binding drew before v4).
 */
export const GOLDEN_DOCUMENT_VERSION = 2 as number as TemplateDocumentT["version"];

/** A one-frame document ("main") holding `layers`, written as version GOLDEN_DOCUMENT_VERSION. */
export function documentOf(layers: Layer[], options: DocumentOptions = {}): TemplateDocumentT {
  const frame: FrameT = {
    name: "main",
    width: options.width ?? 400,
    height: options.height ?? 200,
    layers,
    ...(options.background === undefined ? {} : { background: options.background }),
    ...(options.frameBind === undefined ? {} : { bind: options.frameBind }),
  };
  return {
    version: GOLDEN_DOCUMENT_VERSION,
    key: "test",
    name: "Test",
    slots: options.slots ?? [],
    frames: options.frames ?? [frame],
  };
}

/**
 * Golden `layer-shape/rectangles`: no radius, one radius, four radii. The golden-helper test checks
 * the comparison itself against the same golden, so both must draw exactly this.
 */
export function rectanglesDocument(): TemplateDocumentT {
  return documentOf([
    shapeLayer({ id: "square", x: 20, y: 40, width: 100, height: 100 }),
    shapeLayer({ id: "round", x: 140, y: 40, width: 100, height: 100, fill: "#457B9D", corner_radius: 24 }),
    shapeLayer({
      id: "mixed",
      x: 260,
      y: 40,
      width: 120,
      height: 100,
      fill: "#2A9D8F",
      corner_radius: [0, 40, 10, 60],
    }),
  ]);
}

/** The violet-to-pink gradient the rich-text goldens fill a headline with (a fresh object each call). */
export const violetToPink = (): TextLayerT["color"] => ({
  type: "linear",
  angle: 90,
  stops: [
    { offset: 0, color: "#7C3AED" },
    { offset: 1, color: "#DB2777" },
  ],
});

/**
 * A 440 px wide frame of text layers 408 px wide at x 16 (unless one says otherwise), each empty and
 * bound to a rich text slot of its own id, which the document declares in the layers' order, then
 * `moreSlots` (the rich-text and inline-style goldens).
 */
export function richTextsDocument(
  layers: Optional<TextLayerT, "type" | "x" | "width" | "text" | "color">[],
  options: { height: number; background: string; moreSlots?: SlotT[] },
): TemplateDocumentT {
  return documentOf(
    layers.map((layer) => textLayer({ x: 16, width: 408, text: "", bind: { text: layer.id }, ...layer })),
    {
      width: 440,
      height: options.height,
      background: options.background,
      slots: [
        ...layers.map((layer) => ({ name: layer.id, type: "text" as const, rich: true })),
        ...(options.moreSlots ?? []),
      ],
    },
  );
}

/**
 * A shadowed translucent panel, which the engine keeps as a raster, over text bound to the slot
 * "words" (`beneath` changes that layer) on `background` (the kept-raster tests: the engine copies
 * the raster as it lies over the background where nothing beneath may have drawn).
 */
export function panelOverWords(
  background: FrameT["background"],
  beneath: Partial<TextLayerT> = {},
): TemplateDocumentT {
  const words = textLayer({
    id: "words",
    x: 10,
    y: 60,
    width: 120,
    height: 100,
    text: "",
    bind: { text: "words" },
    ...beneath,
  });
  const panel = shapeLayer({
    id: "panel",
    x: 60,
    y: 30,
    width: 220,
    height: 130,
    corner_radius: 20,
    fill: "#1E293BCC",
    shadows: [{ x: 0, y: 12, blur: 24, color: "#00000066" }],
  });
  return documentOf([words, panel], { slots: [{ name: "words", type: "text" }], background });
}

/** The dark slate-to-indigo background of the kept-raster tests. */
export const slateToIndigo = (): FrameT["background"] => ({
  type: "linear",
  angle: 135,
  stops: [
    { offset: 0, color: "#0F172A" },
    { offset: 1, color: "#312E81" },
  ],
});
