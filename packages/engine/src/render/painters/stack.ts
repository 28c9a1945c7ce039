import type { LayerBase } from "../../document/layers/kind.ts";
import type { ShapeLayerT } from "../../document/layers/shape.ts";
import { MAX_STACK_CHILDREN, type StackLayerT } from "../../document/layers/stack.ts";
import type { Layer } from "../../document/schema.ts";
import type { Bindings } from "../bindings.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { layoutStack, type StackChild, type StackLayout } from "../layout/stack.ts";
import { insetsOf } from "../padding.ts";
import { stackChildren } from "../repeat.ts";
import { type Arranger, definePainter, type SizeQuery } from "./painter.ts";
import { shapePainter } from "./shape.ts";

/** One child a stack lays out: the layer and its JSON path. */
export interface StackEntry {
  layer: LayerBase;
  path: string;
}

/** Each arranged stack's children's own JSON paths (the laid-out list leaves hidden children out). */
const childPaths = new WeakMap<object, readonly string[]>();

export const stackPainter = definePainter<StackLayerT>({
  // A repeat's copies, with the item's values in place: what images and value checks visit.
  drawnChildren: (layer, path, bindings) => stackChildren(layer, path, bindings),
  paint(ctx, layer, path) {
    paintBackground(ctx, layer, path);
    ctx.canvas.translate(layer.x, layer.y);
    ctx.paintLayers(layer.layers, path, childPaths.get(layer));
  },
  measure(ctx, layer, path, box, arranger) {
    const { width, height } = layOut(ctx, layer, path, box, arranger, entriesOf(ctx, layer, path, arranger));
    return { width, height };
  },
  arrange(ctx, layer, path, arranger) {
    const entries = entriesOf(ctx, layer, path, arranger);
    const box = { width: layer.width, height: layer.height };
    const result = layOut(ctx, layer, path, box, arranger, entries);
    const layers = entries.map(({ layer: child, path: childPath }, i) => {
      const at = result.placed[i] as { x: number; y: number; width: number; height: number };
      return arranger.place({ ...child, ...at }, childPath) as Layer;
    });
    const arranged: StackLayerT = { ...layer, layers };
    childPaths.set(
      arranged,
      entries.map((entry) => entry.path),
    );
    return arranged;
  },
});

/**
 * The children a stack lays out in this render, in order, with their JSON paths: those that show
 * (drawn, not empty), so hidden ones take no space. The one place a stack's children are listed, so
 * that anything expanding them (a repeat) plugs in here, before layout. Refuses more than
 * MAX_STACK_CHILDREN (validation refuses such documents; a direct engine caller gets the error).
 */
/**
 * stackEntries, once per render for each list of children: measuring a stack and placing it list the
 * same children (a repeat's copies included), so their measures are asked of the same objects and
 * answered from the render's cache.
 */
function entriesOf(ctx: PaintContext, layer: StackLayerT, path: string, arranger: Arranger): StackEntry[] {
  const listed = listedThisRender.get(layer.layers);
  if (listed !== undefined && listed.render === ctx.measured && listed.path === path) return listed.entries;
  const entries = stackEntries(layer, path, arranger, ctx.bindings);
  listedThisRender.set(layer.layers, { render: ctx.measured, path, entries });
  return entries;
}

/** The entries last listed for a stack's children (by its `layers` array), and in which render. */
const listedThisRender = new WeakMap<object, { render: object; path: string; entries: StackEntry[] }>();

export function stackEntries(
  layer: StackLayerT,
  path: string,
  arranger: Arranger,
  bindings: Bindings,
): StackEntry[] {
  const children = stackChildren(layer, path, bindings);
  if (children.length > MAX_STACK_CHILDREN) {
    throw new EngineError(
      "invalid_document",
      `${path}.layers`,
      `a stack holds at most ${MAX_STACK_CHILDREN} layers (it has ${children.length}${layer.repeat === undefined ? "" : ", repeated"})`,
    );
  }
  return children.filter((child) => arranger.shows(child.layer, child.path));
}

function layOut(
  _ctx: PaintContext,
  layer: StackLayerT,
  _path: string,
  box: SizeQuery,
  arranger: Arranger,
  entries: readonly StackEntry[],
): StackLayout {
  const max = layer.layout;
  const children = describedChildren(entries, arranger);
  return layoutStack(
    {
      direction: layer.direction ?? "column",
      gap: layer.gap ?? 0,
      lineGap: layer.line_gap ?? layer.gap ?? 0,
      padding: insetsOf(layer.padding),
      align: layer.align ?? "start",
      distribute: layer.distribute ?? "start",
      wrap: layer.wrap === true,
      width: box.width,
      height: box.height,
      maxWidth: max?.max_width ?? Number.POSITIVE_INFINITY,
      maxHeight: max?.max_height ?? Number.POSITIVE_INFINITY,
    },
    children,
  );
}

/**
 * The children as the layout sees them, made once for each list of entries and arranger: a stack is
 * laid out two or three times a render (measured without a size, measured across, placed).
 */
function describedChildren(entries: readonly StackEntry[], arranger: Arranger): StackChild[] {
  const known = described.get(entries);
  if (known !== undefined && known.arranger === arranger) return known.children;
  const children: StackChild[] = entries.map(({ layer: child, path: childPath }) => ({
    width: child.width,
    height: child.height,
    sizing: arranger.sizing(child),
    stretches: arranger.stretches(child),
    measure: (width, height) => arranger.measure(child, childPath, { width, height }),
  }));
  described.set(entries, { arranger, children });
  return children;
}

const described = new WeakMap<readonly StackEntry[], { arranger: Arranger; children: StackChild[] }>();

/** The stack's own fill and stroke, drawn as the shape layer of its box would be (same bindings). */
function paintBackground(ctx: PaintContext, layer: StackLayerT, path: string): void {
  const fill = layer.fill ?? null;
  const stroke = layer.stroke ?? null;
  if (fill === null && stroke === null) return;
  const bind: Record<string, string> = {};
  if (layer.bind?.fill !== undefined) bind.fill = layer.bind.fill;
  if (layer.bind?.["stroke.color"] !== undefined) bind["stroke.color"] = layer.bind["stroke.color"];
  const background: ShapeLayerT = {
    id: layer.id,
    type: "shape",
    shape: "rectangle",
    x: layer.x,
    y: layer.y,
    width: layer.width,
    height: layer.height,
    fill,
    stroke,
    ...(layer.corner_radius === undefined ? {} : { corner_radius: layer.corner_radius }),
    ...(Object.keys(bind).length === 0 ? {} : { bind }),
  };
  shapePainter.paint(ctx, background, path);
}
