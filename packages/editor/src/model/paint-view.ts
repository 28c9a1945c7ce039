/**
 * How the editor shows a document Paint (document/common.ts in the engine): a "#RRGGBB[AA]" string is
 * a solid colour; anything else (a linear or radial gradient today) is shown, not edited, until the
 * editor has gradient controls. Structural types, so a paint kind the engine adds later still shows.
 */

export interface GradientLike {
  type: string;
  angle?: number;
  center?: { x: number; y: number };
  radius?: number;
  shape?: string;
  stops?: readonly { offset: number; color: string }[];
  pattern?: string;
  image?: string;
  color?: string;
  background?: string;
}

export type PaintValue = string | GradientLike;

export function isSolid(paint: PaintValue | null | undefined): paint is string {
  return typeof paint === "string";
}

/** "linear gradient, 3 stops". */
export function describePaint(paint: PaintValue): string {
  if (typeof paint === "string") return paint;
  if (paint.image !== undefined) return "image pattern";
  if (paint.type === "pattern") return `${paint.pattern ?? ""} pattern`;
  const stops = paint.stops?.length ?? 0;
  return `${paint.type} gradient, ${stops} stop${stops === 1 ? "" : "s"}`;
}

/** A CSS background approximating the paint, for a swatch (the canvas shows the real drawing). */
export function cssPaint(paint: PaintValue): string {
  if (typeof paint === "string") return paint;
  // The tile image is not at hand for a swatch: a neutral checker says "a picture".
  if (paint.image !== undefined) return "repeating-conic-gradient(#999 0 25%, #eee 0 50%) 0 0 / 8px 8px";
  if (paint.type === "pattern") {
    // Two colours in stripes: enough for a swatch to say "a pattern of these".
    const ink = paint.color ?? "#000000";
    const ground = paint.background ?? "transparent";
    return `repeating-linear-gradient(45deg, ${ink} 0 3px, ${ground} 3px 6px)`;
  }
  const stops = (paint.stops ?? []).map((s) => `${s.color} ${Math.round(s.offset * 1000) / 10}%`).join(", ");
  if (stops === "") return "transparent";
  if (paint.type === "radial") {
    const c = paint.center ?? { x: 0.5, y: 0.5 };
    return `radial-gradient(${paint.shape === "ellipse" ? "ellipse" : "circle"} at ${c.x * 100}% ${c.y * 100}%, ${stops})`;
  }
  return `linear-gradient(${paint.angle ?? 180}deg, ${stops})`;
}
