import type { CanvasKit, Path, PathBuilder } from "canvaskit-wasm";
import type { IconElement, IconSet, IconShape } from "../api.ts";

/** The icon grid of Lucide (and Feather): every icon is drawn in a 24x24 view box. */
export const ICON_GRID = 24;

/**
 * An IconSet over parsed `icon-nodes.json` (name -> elements). Hosts call this with the very same
 * JSON so the editor and the API draw identical icons.
 */
export function iconSetFromNodes(nodes: Readonly<Record<string, IconShape>>): IconSet {
  return {
    get: (name) => (Object.hasOwn(nodes, name) ? nodes[name] : undefined),
  };
}

// Outlines are kept per (icon, stroke width, size, scale): a template draws the same icons at the
// same sizes render after render. Bounded so a long-lived engine does not grow without end.
const MAX_CACHED = 256;

/**
 * Turns icons into filled outlines, once per engine: each element is stroked (round caps and joins,
 * as Lucide draws) and all are united, so a translucent colour or a gradient covers the icon evenly
 * where strokes meet. Outlines are built at their drawn size (template px) so the stroker's curve
 * precision matches the output's resolution.
 */
export class IconLibrary {
  private readonly cache = new Map<string, Path | null>();
  private readonly ck: CanvasKit;
  private readonly set: IconSet | null;

  constructor(ck: CanvasKit, set: IconSet | null) {
    this.ck = ck;
    this.set = set;
  }

  /** Whether the host supplied the icon. */
  has(name: string): boolean {
    return this.set?.get(name) !== undefined;
  }

  /**
   * The icon's outline with its grid scaled by `size / 24` about the origin (template px), stroked
   * `strokeWidth` grid units wide; null when the host has no such icon or nothing is left to draw.
   * Owned by the library: do not delete.
   */
  outline(name: string, strokeWidth: number, size: number, scale: number): Path | null {
    const key = `${name}\n${strokeWidth}\n${size}\n${scale}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const shape = this.set?.get(name);
    const path = shape === undefined ? null : this.build(shape, strokeWidth, size / ICON_GRID, scale);
    if (this.cache.size >= MAX_CACHED) {
      const [oldestKey, oldest] = this.cache.entries().next().value ?? [];
      if (oldestKey !== undefined) this.cache.delete(oldestKey);
      oldest?.delete();
    }
    this.cache.set(key, path);
    return path;
  }

  dispose(): void {
    for (const path of this.cache.values()) path?.delete();
    this.cache.clear();
  }

  private build(shape: IconShape, strokeWidth: number, unit: number, scale: number): Path | null {
    const { ck } = this;
    const parts: Path[] = [];
    for (const element of shape) {
      const geometry = elementPath(ck, element);
      if (geometry === null) continue;
      const builder = new ck.PathBuilder(geometry);
      geometry.delete();
      const scaled = builder.transform([unit, 0, 0, 0, unit, 0, 0, 0, 1]).detachAndDelete();
      const stroked = scaled.makeStroked({
        width: strokeWidth * unit,
        cap: ck.StrokeCap.Round,
        join: ck.StrokeJoin.Round,
        miter_limit: 4,
        precision: scale,
      });
      if (stroked !== null) parts.push(stroked);
      const fill = element[1].fill;
      if (fill !== undefined && fill !== "none") parts.push(scaled);
      else scaled.delete();
    }
    return unite(ck, parts);
  }
}

/** Unites the parts into one path (deleting them); falls back to stacking them should PathOps fail. */
function unite(ck: CanvasKit, parts: Path[]): Path | null {
  const [first, ...rest] = parts;
  if (first === undefined) return null;
  let union = first;
  for (const part of rest) {
    const next = ck.Path.MakeFromOp(union, part, ck.PathOp.Union);
    if (next === null) {
      const builder = new ck.PathBuilder(union);
      builder.addPath(part);
      union.delete();
      union = builder.detachAndDelete();
    } else {
      union.delete();
      union = next;
    }
    part.delete();
  }
  return union;
}

function num(attributes: Readonly<Record<string, string>>, name: string): number {
  const value = Number(attributes[name] ?? 0);
  return Number.isFinite(value) ? value : 0;
}

/** `"x1,y1 x2,y2 ..."` (SVG points lists) as flat coordinates. */
function points(list: string | undefined): number[] {
  return (list ?? "")
    .trim()
    .split(/[\s,]+/)
    .filter((token) => token !== "")
    .map(Number)
    .filter(Number.isFinite);
}

/** One SVG element of an icon as a Skia path in grid units, or null for anything unknown or empty. */
function elementPath(ck: CanvasKit, [tag, a]: IconElement): Path | null {
  if (tag === "path") return ck.Path.MakeFromSVGString(a.d ?? "");
  const builder: PathBuilder = new ck.PathBuilder();
  switch (tag) {
    case "circle":
      builder.addCircle(num(a, "cx"), num(a, "cy"), num(a, "r"));
      break;
    case "ellipse": {
      const [cx, cy, rx, ry] = [num(a, "cx"), num(a, "cy"), num(a, "rx"), num(a, "ry")];
      builder.addOval(ck.LTRBRect(cx - rx, cy - ry, cx + rx, cy + ry));
      break;
    }
    case "rect": {
      const [x, y, w, h] = [num(a, "x"), num(a, "y"), num(a, "width"), num(a, "height")];
      // SVG: a missing rx takes ry and the other way round; both are capped at half the side.
      const rx = Math.min(a.rx === undefined ? num(a, "ry") : num(a, "rx"), w / 2);
      const ry = Math.min(a.ry === undefined ? num(a, "rx") : num(a, "ry"), h / 2);
      builder.addRRect(Float32Array.of(x, y, x + w, y + h, rx, ry, rx, ry, rx, ry, rx, ry));
      break;
    }
    case "line":
      builder.moveTo(num(a, "x1"), num(a, "y1")).lineTo(num(a, "x2"), num(a, "y2"));
      break;
    case "polyline":
    case "polygon": {
      const flat = points(a.points);
      if (flat.length >= 4) builder.addPolygon(flat.slice(0, flat.length & ~1), tag === "polygon");
      break;
    }
  }
  if (builder.isEmpty()) {
    builder.delete();
    return null;
  }
  return builder.detachAndDelete();
}
