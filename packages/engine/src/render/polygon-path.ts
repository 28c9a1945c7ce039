import type { CanvasKit, Path } from "canvaskit-wasm";
import type { PaintBox } from "./paint.ts";

type Point = readonly [number, number];

/**
 * Vertices of a regular polygon (`inner` null) or a star (`inner`: the inner points' radius as a
 * fraction of the outer), first point straight up, then clockwise, stretched so that their bounding
 * box fills `box`: a triangle touches the box's bottom edge as in design tools, and a wide box gives a
 * wide polygon.
 */
export function regularVertices(count: number, inner: number | null, box: PaintBox): Point[] {
  const unit: Point[] = [];
  const steps = inner === null ? count : count * 2;
  for (let i = 0; i < steps; i++) {
    const angle = -Math.PI / 2 + (i * 2 * Math.PI) / steps;
    const radius = inner !== null && i % 2 === 1 ? inner : 1;
    unit.push([Math.cos(angle) * radius, Math.sin(angle) * radius]);
  }
  const xs = unit.map(([x]) => x);
  const ys = unit.map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = maxX - minX > 1e-9 ? box.width / (maxX - minX) : 0;
  const sy = maxY - minY > 1e-9 ? box.height / (maxY - minY) : 0;
  return unit.map(([x, y]) => [box.x + (x - minX) * sx, box.y + (y - minY) * sy]);
}

/**
 * A closed path through `vertices` with each corner rounded by `radius` (template px). A corner's
 * radius shrinks where it would not fit: its rounding may use at most half of each adjacent edge.
 */
export function roundedPolygonPath(ck: CanvasKit, vertices: readonly Point[], radius: number): Path {
  const builder = new ck.PathBuilder();
  const n = vertices.length;
  const at = (i: number): Point => vertices[((i % n) + n) % n] ?? [0, 0];
  if (radius <= 0) {
    builder.addPolygon(vertices.flat(), true);
    return builder.detachAndDelete();
  }
  const [lx, ly] = at(n - 1);
  const [fx, fy] = at(0);
  builder.moveTo((lx + fx) / 2, (ly + fy) / 2);
  for (let i = 0; i < n; i++) {
    const [px, py] = at(i - 1);
    const [vx, vy] = at(i);
    const [nx, ny] = at(i + 1);
    const toPrev = Math.hypot(px - vx, py - vy);
    const toNext = Math.hypot(nx - vx, ny - vy);
    let r = 0;
    if (toPrev > 1e-9 && toNext > 1e-9) {
      const cos = ((px - vx) * (nx - vx) + (py - vy) * (ny - vy)) / (toPrev * toNext);
      const half = Math.acos(Math.max(-1, Math.min(1, cos))) / 2;
      // Distance from the corner to where the arc meets each edge is r / tan(half).
      const tan = Math.tan(half);
      r = Math.min(radius, (Math.min(toPrev, toNext) / 2) * tan);
    }
    builder.arcToTangent(vx, vy, nx, ny, Number.isFinite(r) ? r : 0);
  }
  builder.close();
  return builder.detachAndDelete();
}
