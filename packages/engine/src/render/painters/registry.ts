import type { LayerBase } from "../../document/layers/kind.ts";
import { LAYER_DEFINITIONS, type Layer, type LayerOfType } from "../../document/layers/registry.ts";
import { barcodePainter } from "./barcode.ts";
import { chartPainter } from "./chart.ts";
import { groupPainter } from "./group.ts";
import { iconPainter } from "./icon.ts";
import { imagePainter } from "./image.ts";
import { linePainter } from "./line.ts";
import type { LayerPainter, RenderKind } from "./painter.ts";
import { pathPainter } from "./path.ts";
import { polygonPainter } from "./polygon.ts";
import { progressPainter } from "./progress.ts";
import { qrPainter } from "./qr.ts";
import { ratingPainter } from "./rating.ts";
import { shapePainter } from "./shape.ts";
import { stackPainter } from "./stack.ts";
import { starPainter } from "./star.ts";
import { textPainter } from "./text.ts";

/**
 * The painter of every layer type, by its `type`: the one key that joins it to its document half
 * (document/layers/registry.ts). Typed by the document's layer types, so a type without a painter (or
 * a painter for a layer of another type) does not compile.
 */
const PAINTERS: { readonly [K in Layer["type"]]: LayerPainter<LayerOfType<K>> } = {
  text: textPainter,
  image: imagePainter,
  shape: shapePainter,
  line: linePainter,
  polygon: polygonPainter,
  star: starPainter,
  path: pathPainter,
  icon: iconPainter,
  qr: qrPainter,
  barcode: barcodePainter,
  rating: ratingPainter,
  progress: progressPainter,
  chart: chartPainter,
  group: groupPainter,
  stack: stackPainter,
};

function joined(): ReadonlyMap<string, RenderKind> {
  const painters = PAINTERS as unknown as Readonly<Record<string, LayerPainter>>;
  return new Map(
    LAYER_DEFINITIONS.map((definition) => {
      const painter = painters[definition.type];
      if (painter === undefined) throw new Error(`layer type ${definition.type} has no painter`);
      // A mask names a layer whose type validation accepted as a mask: it must have an outline to draw.
      if ((definition.canMask === true) !== (painter.outline !== undefined)) {
        throw new Error(`layer type ${definition.type}: canMask and the painter's outline disagree`);
      }
      return [definition.type, { ...definition, ...painter }];
    }),
  );
}

const BY_TYPE = joined();

/** The kind (document half and painter) of a validated layer. */
export function kindOf(layer: LayerBase): RenderKind {
  const kind = BY_TYPE.get(layer.type);
  if (kind === undefined) throw new Error(`unknown layer type ${JSON.stringify(layer.type)}`);
  return kind;
}
