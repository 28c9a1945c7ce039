import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";

interface Props {
  doc: TemplateDocumentT;
  frame: FrameT;
  values: SlotValues;
  zoom: number;
}

/**
 * An image layer with nothing to draw (no source, and no slot value or default bound to it) draws
 * nothing, in the API as in the engine: the editor outlines it over the canvas (not in the pixels) so
 * it can still be seen, found and given an image. Top-level layers of the frame.
 */
export function EmptyImagePlaceholders({ doc, frame, values, zoom }: Props) {
  const empty = (frame.layers as Layer[]).filter((l) => {
    if (l.type !== "image" || l.visible === false || l.src !== "") return false;
    const slot = l.bind?.src;
    if (slot === undefined) return true;
    return !values[slot] && !doc.slots.find((s) => s.name === slot)?.default;
  });
  return (
    <>
      {empty.map((l) => (
        <div
          key={l.id}
          className="empty-image"
          data-testid={`empty-image-${l.id}`}
          style={{
            left: l.x * zoom,
            top: l.y * zoom,
            width: l.width * zoom,
            height: l.height * zoom,
            transform: `rotate(${l.rotation ?? 0}deg)`,
          }}
        >
          {l.width * zoom > 60 && l.height * zoom > 24 ? "▣ empty image" : "▣"}
        </div>
      ))}
    </>
  );
}
