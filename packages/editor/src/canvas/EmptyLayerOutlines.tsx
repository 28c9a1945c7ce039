import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import { formOf } from "../layer-forms/registry.ts";

interface Props {
  doc: TemplateDocumentT;
  frame: FrameT;
  values: SlotValues;
  zoom: number;
}

/**
 * Layers that draw nothing as they stand (an image layer with no source, and no slot value or
 * default bound to it), in the API as in the engine: the editor outlines them over the canvas (not
 * in the pixels) so they can still be seen, found and filled. Which layers, and the words shown, come
 * from each kind's form (`emptyNote` in layer-forms/). Top-level visible layers of the frame.
 */
export function EmptyLayerOutlines({ doc, frame, values, zoom }: Props) {
  const empty = (frame.layers as Layer[]).flatMap((l) => {
    const note = l.visible === false ? null : (formOf(l).emptyNote?.(l, doc, values) ?? null);
    return note === null ? [] : [{ layer: l, note }];
  });
  return (
    <>
      {empty.map(({ layer: l, note }) => (
        <div
          key={l.id}
          className="empty-layer"
          data-testid={`empty-layer-${l.id}`}
          style={{
            left: l.x * zoom,
            top: l.y * zoom,
            width: l.width * zoom,
            height: l.height * zoom,
            transform: `rotate(${l.rotation ?? 0}deg)`,
          }}
        >
          {l.width * zoom > 60 && l.height * zoom > 24 ? note : ""}
        </div>
      ))}
    </>
  );
}
