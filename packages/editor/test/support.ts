import type { TemplateDocumentT } from "@pictor/engine";

/** A square rectangle layer. */
export const sq = (id: string, x: number, y: number, size = 100) => ({
  id,
  type: "shape" as const,
  shape: "rectangle" as const,
  x,
  y,
  width: size,
  height: size,
  fill: "#111111",
});

/** A one-frame document (1000 x 600) holding these layers and slots. */
export function doc(layers: unknown[], slots: unknown[] = []): TemplateDocumentT {
  return {
    version: 4,
    key: "arrange",
    name: "Arrange",
    slots,
    frames: [{ name: "main", width: 1000, height: 600, background: "#FFFFFF", layers }],
  } as TemplateDocumentT;
}

/** Each top-level layer of the first frame as [id, x, y, width, height, rotation]. */
export const boxes = (d: TemplateDocumentT) =>
  (d.frames[0]?.layers ?? []).map((l) => [l.id, l.x, l.y, l.width, l.height, l.rotation ?? 0]);
