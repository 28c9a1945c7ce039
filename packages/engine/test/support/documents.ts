import type {
  FrameT,
  GroupLayerT,
  ImageLayerT,
  Layer,
  ShapeLayerT,
  SlotT,
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

export function groupLayer(
  fields: Optional<GroupLayerT, "id" | "type" | "x" | "y" | "width" | "height">,
): GroupLayerT {
  return { id: "group", type: "group", x: 0, y: 0, width: 200, height: 200, ...fields };
}

export interface DocumentOptions {
  width?: number;
  height?: number;
  background?: string;
  frameBind?: Record<string, string>;
  slots?: SlotT[];
  frames?: FrameT[];
}

/** A one-frame document ("main") holding `layers`. */
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
    version: 2,
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
