/** Templates of the editor benchmark (bench/editor.bench.ts). */

const FAMILIES = ["Inter", "Roboto", "Montserrat", "Lora", "Playfair Display", "Oswald"];

/** The baseline: 30 layers on a 1200x630 frame (12 texts, 8 rectangles, 6 ellipses, 4 images), v1. */
export function thirtyLayerTemplate(asset: string) {
  const layers: unknown[] = [];
  for (let i = 0; i < 8; i++) {
    layers.push({
      id: `rect-${i}`,
      type: "shape",
      shape: "rectangle",
      x: 20 + i * 140,
      y: 20,
      width: 120,
      height: 90,
      fill: `#${(0x336699 + i * 0x101010).toString(16).slice(-6).toUpperCase()}`,
      corner_radius: 12,
      stroke: { color: "#111827", width: 2 },
    });
  }
  for (let i = 0; i < 6; i++) {
    layers.push({
      id: `ellipse-${i}`,
      type: "shape",
      shape: "ellipse",
      x: 40 + i * 180,
      y: 130,
      width: 100,
      height: 100,
      fill: "#F59E0B",
      opacity: 0.8,
    });
  }
  for (let i = 0; i < 4; i++) {
    layers.push({
      id: `image-${i}`,
      type: "image",
      x: 20 + i * 290,
      y: 250,
      width: 270,
      height: 160,
      src: `asset://${asset}`,
      fit: "cover",
      corner_radius: 16,
    });
  }
  for (let i = 0; i < 12; i++) {
    layers.push({
      id: `text-${i}`,
      type: "text",
      x: 20 + (i % 4) * 290,
      y: 430 + Math.floor(i / 4) * 62,
      width: 270,
      height: 56,
      text: `Headline number ${i + 1} with several words to wrap`,
      font: { family: FAMILIES[i % FAMILIES.length], weight: i % 2 ? 700 : 400, size: 22 },
      color: "#111827",
      fit: "shrink",
      min_size: 12,
      max_lines: 2,
    });
  }
  return {
    version: 1,
    key: "bench-thirty-layers",
    name: "Bench: 30 layers",
    slots: [],
    frames: [{ name: "main", width: 1200, height: 630, background: "#FFFFFF", layers }],
  };
}

const gradient = (angle: number, a: string, b: string) => ({
  type: "linear",
  angle,
  stops: [
    { offset: 0, color: a },
    { offset: 1, color: b },
  ],
});
const shadow = [{ x: 0, y: 6, blur: 12, color: "#0F172A55" }];

/**
 * 60 layers of document v2 on 1200x630: 16 gradient rectangles with shadows, 10 radial-gradient
 * ellipses, 8 images with filters (grayscale, duotone, blur, contrast…), a border and a shadow,
 * 6 polygons and stars with gradients, 20 texts (gradient colours, shadows, a highlight, rich text).
 */
export function sixtyLayerTemplate(asset: string) {
  const layers: unknown[] = [];
  for (let i = 0; i < 16; i++) {
    layers.push({
      id: `rect-${i}`,
      type: "shape",
      shape: "rectangle",
      x: 10 + (i % 8) * 148,
      y: 10 + Math.floor(i / 8) * 70,
      width: 130,
      height: 56,
      corner_radius: 10,
      fill: gradient((30 * i) % 360, "#2563EB", "#F43F5E"),
      shadows: shadow,
    });
  }
  for (let i = 0; i < 10; i++) {
    layers.push({
      id: `ellipse-${i}`,
      type: "shape",
      shape: "ellipse",
      x: 20 + i * 116,
      y: 160,
      width: 90,
      height: 90,
      fill: {
        type: "radial",
        center: { x: 0.5, y: 0.5 },
        radius: 0.5,
        stops: [
          { offset: 0, color: "#FDE047" },
          { offset: 1, color: "#F472B6" },
        ],
      },
      opacity: 0.9,
    });
  }
  const filters = [
    { grayscale: 1 },
    { sepia: 0.8 },
    { duotone: { dark: "#1E1B4B", light: "#F9A8D4" } },
    { blur: 6 },
    { contrast: 1.3, saturation: 1.4 },
    { brightness: 0.8 },
    { grayscale: 0.5, contrast: 1.2 },
    { saturation: 0 },
  ];
  for (let i = 0; i < 8; i++) {
    layers.push({
      id: `image-${i}`,
      type: "image",
      x: 10 + i * 148,
      y: 265,
      width: 135,
      height: 110,
      src: `asset://${asset}`,
      fit: "cover",
      corner_radius: 14,
      filters: filters[i],
      border: { width: 4, color: gradient(90, "#FDE047", "#F472B6") },
      shadows: shadow,
    });
  }
  for (let i = 0; i < 6; i++) {
    layers.push({
      id: `poly-${i}`,
      type: i % 2 ? "star" : "polygon",
      ...(i % 2 ? { points: 5, inner_radius: 0.5 } : { sides: 6 }),
      x: 20 + i * 196,
      y: 385,
      width: 60,
      height: 60,
      fill: gradient(45, "#10B981", "#3B82F6"),
      shadows: shadow,
    });
  }
  for (let i = 0; i < 20; i++) {
    layers.push({
      id: `text-${i}`,
      type: "text",
      x: 90 + (i % 4) * 280,
      y: 385 + Math.floor(i / 4) * 48,
      width: 190 + (i % 4 === 3 ? 0 : 60),
      height: 44,
      text:
        i === 5
          ? '<b>Rich</b> text with <i>styles</i> and <color value="#DC2626">colour</color>'
          : `Headline number ${i + 1} with several words to wrap`,
      font: { family: FAMILIES[i % FAMILIES.length], weight: i % 2 ? 700 : 400, size: 18 },
      color: i % 3 === 0 ? gradient(90, "#1D4ED8", "#BE185D") : "#111827",
      fit: "shrink",
      min_size: 10,
      max_lines: 2,
      ...(i % 4 === 1 ? { shadows: [{ x: 0, y: 2, blur: 4, color: "#00000055" }] } : {}),
      ...(i % 7 === 2 ? { highlight: { color: "#FDE68A", padding: 2 } } : {}),
      ...(i === 5 ? { bind: { text: "rich" } } : {}),
    });
  }
  return {
    version: 2,
    key: "bench-sixty-layers",
    name: "Bench: 60 layers v2",
    slots: [{ name: "rich", type: "text", rich: true }],
    frames: [{ name: "main", width: 1200, height: 630, background: "#F8FAFC", layers }],
  };
}

/**
 * 200 layers: the 60-layer document's layers three times over (ids suffixed, each copy shifted a
 * little), then its first 20 again; the dragged rectangle (`rect-2`) is near the back, so a move of
 * it redraws nearly all the layers above it.
 */
export function twoHundredLayerTemplate(asset: string) {
  const base = sixtyLayerTemplate(asset);
  const source = base.frames[0]?.layers as { id: string; x: number; y: number; bind?: unknown }[];
  const layers: unknown[] = [...source];
  for (let copy = 1; layers.length < 200; copy++)
    for (const l of source) {
      if (layers.length >= 200) break;
      const { bind: _bind, ...rest } = l;
      layers.push({ ...rest, id: `${l.id}-c${copy}`, x: l.x + 7 * copy, y: l.y + 5 * copy });
    }
  return {
    ...base,
    key: "bench-two-hundred-layers",
    name: "Bench: 200 layers v2",
    frames: [{ ...base.frames[0], layers }],
  };
}
