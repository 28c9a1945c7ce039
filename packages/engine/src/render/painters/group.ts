import type { GroupLayerT } from "../../document/layers/group.ts";
import { definePainter } from "./painter.ts";

/** The children are drawn by the common pipeline (render/layers.ts), in the group's coordinates. */
export const groupPainter = definePainter<GroupLayerT>({
  paint(ctx, layer, path) {
    ctx.canvas.translate(layer.x, layer.y);
    ctx.paintLayers(layer.layers, path);
  },
});
