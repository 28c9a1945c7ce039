/**
 * Stack layout: places children in a row or a column, pure arithmetic (no CanvasKit, no document): the
 * children's content sizes come in through each child's `measure`, so it is tested and timed on its
 * own (1,000 children in well under a millisecond) and the painter (render/painters/stack.ts) only
 * supplies measures and draws.
 *
 * Along the main axis (x in a row, y in a column) children follow each other `gap` apart; `fill`
 * children share what is left of the inside (the stack's box less its padding), then the rest is
 * distributed (start, center, end, space-between). Across it, children align (start, center, end) or
 * stretch to the inside. A row that wraps breaks into lines where the next child would overflow;
 * lines are `lineGap` apart. A stack that hugs an axis takes its content's size there (plus padding),
 * up to its maximum; beyond that it lays out as if the maximum were its size (text wraps).
 */

export type Sizing = "fixed" | "hug" | "fill";
export type CrossAlign = "start" | "center" | "end" | "stretch";
export type Distribution = "start" | "center" | "end" | "space-between";

export interface Size {
  width: number;
  height: number;
}

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface StackBox {
  direction: "row" | "column";
  gap: number;
  /** Between the lines of a wrapping row. */
  lineGap: number;
  padding: Insets;
  align: CrossAlign;
  distribute: Distribution;
  /** Rows only: break into lines instead of overflowing. */
  wrap: boolean;
  /** The stack's size on each axis, or null where it hugs its content. */
  width: number | null;
  height: number | null;
  /** Caps on a hugging axis (Infinity: none). */
  maxWidth: number;
  maxHeight: number;
}

export interface StackChild {
  /** Its own size, used where its sizing is `fixed`. */
  width: number;
  height: number;
  sizing: { width: Sizing; height: Sizing };
  /** Whether `align: stretch` may resize it across (not a child that hugs that axis, nor an image). */
  stretches: boolean;
  /**
   * Its content's size given a width and/or height (null: as large as the content wants, up to the
   * child's own maximum). Called only for axes that hug, and for the other axis of a hugging child.
   */
  measure(width: number | null, height: number | null): Size;
}

export interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StackLayout extends Size {
  /** One box per child, in the stack's coordinates (its top-left corner is 0, 0). */
  placed: Placed[];
}

interface Item {
  child: StackChild;
  /** Its place in `children` (and in the result's `placed`). */
  index: number;
  main: number;
  /** The cross size, or null while it waits for its line's (stretched without a definite inside). */
  cross: number | null;
  mainSizing: Sizing;
  crossSizing: Sizing;
  stretched: boolean;
}

export function layoutStack(box: StackBox, children: readonly StackChild[]): StackLayout {
  const first = layoutOnce(box, children);
  // A hugging axis whose content outgrows its maximum lays out again at the maximum.
  const capWidth = box.width === null && first.width > box.maxWidth;
  const capHeight = box.height === null && first.height > box.maxHeight;
  if (!capWidth && !capHeight) return first;
  return layoutOnce(
    {
      ...box,
      width: capWidth ? box.maxWidth : box.width,
      height: capHeight ? box.maxHeight : box.height,
    },
    children,
  );
}

function layoutOnce(box: StackBox, children: readonly StackChild[]): StackLayout {
  const row = box.direction === "row";
  const p = box.padding;
  const padMain = row ? p.left + p.right : p.top + p.bottom;
  const padCross = row ? p.top + p.bottom : p.left + p.right;
  const boxMain = row ? box.width : box.height;
  const boxCross = row ? box.height : box.width;
  const innerMain = boxMain === null ? null : Math.max(0, boxMain - padMain);
  const innerCross = boxCross === null ? null : Math.max(0, boxCross - padCross);
  const wraps = box.wrap && row && innerMain !== null;
  // measure() in main/cross terms.
  const measure = (child: StackChild, main: number | null, cross: number | null) => {
    const size = row ? child.measure(main, cross) : child.measure(cross, main);
    return row ? { main: size.width, cross: size.height } : { main: size.height, cross: size.width };
  };

  const items: Item[] = children.map((child, index) => {
    const mainSizing = row ? child.sizing.width : child.sizing.height;
    const crossSizing = row ? child.sizing.height : child.sizing.width;
    const ownMain = row ? child.width : child.height;
    const ownCross = row ? child.height : child.width;
    const stretched =
      crossSizing === "fill" || (box.align === "stretch" && child.stretches && crossSizing !== "hug");
    // A stretched child's cross size is the inside's when known; a wrapping row's lines set it later.
    let cross: number | null = crossSizing === "fixed" && !stretched ? ownCross : null;
    if (stretched && innerCross !== null && !wraps) cross = innerCross;
    let main = ownMain;
    const hugsMain = mainSizing === "hug" || (mainSizing === "fill" && (innerMain === null || wraps));
    if (hugsMain) {
      let measured = measure(child, null, cross);
      // A hugging child is never longer than the inside: text wraps there instead.
      if (innerMain !== null && measured.main > innerMain) measured = measure(child, innerMain, cross);
      main = measured.main;
      if (cross === null && !stretched) cross = measured.cross;
    } else if (mainSizing === "fill") {
      main = 0; // grows into the line's free space below
    }
    return { child, index, main, cross, mainSizing, crossSizing, stretched };
  });

  // Lines: one, unless a row wraps.
  const lines: Item[][] = [];
  let line: Item[] = [];
  let used = 0;
  for (const item of items) {
    const added = line.length === 0 ? item.main : used + box.gap + item.main;
    if (wraps && line.length > 0 && innerMain !== null && added > innerMain + 1e-6) {
      lines.push(line);
      line = [item];
      used = item.main;
    } else {
      line.push(item);
      used = added;
    }
  }
  if (line.length > 0) lines.push(line);

  const placed: Placed[] = new Array(children.length);
  let crossAt = row ? p.top : p.left;
  let contentMain = 0;
  let contentCross = 0;
  lines.forEach((lineItems, lineIndex) => {
    let taken = box.gap * (lineItems.length - 1);
    let fills = 0;
    for (const item of lineItems) {
      taken += item.main;
      if (item.mainSizing === "fill") fills++;
    }
    let free = innerMain === null ? 0 : innerMain - taken;
    if (fills > 0 && innerMain !== null && free > 0) {
      const share = free / fills;
      for (const item of lineItems) if (item.mainSizing === "fill") item.main += share;
      taken += free;
      free = 0;
    }
    // Cross sizes that depend on the main size: a hugging child's, measured at its final main size.
    for (const item of lineItems) {
      if (item.crossSizing === "hug" && !item.stretched) {
        item.cross = measure(item.child, item.main, null).cross;
      }
    }
    let lineCross = -1;
    if (innerCross !== null && !wraps) lineCross = innerCross;
    else
      for (const item of lineItems) if (item.cross !== null && item.cross > lineCross) lineCross = item.cross;
    if (lineCross < 0) {
      lineCross = 0;
      for (const item of lineItems)
        lineCross = Math.max(lineCross, measure(item.child, item.main, null).cross);
    }
    for (const item of lineItems) if (item.cross === null || item.stretched) item.cross = lineCross;

    const gaps = lineItems.length - 1;
    let mainAt = (row ? p.left : p.top) + Math.max(0, leading(box.distribute, free));
    const between = box.gap + (box.distribute === "space-between" && gaps > 0 && free > 0 ? free / gaps : 0);
    for (const item of lineItems) {
      const cross = item.cross as number;
      const offset = item.stretched ? 0 : crossOffset(box.align, lineCross - cross);
      const at = { main: mainAt, cross: crossAt + offset };
      placed[item.index] = row
        ? { x: at.main, y: at.cross, width: item.main, height: cross }
        : { x: at.cross, y: at.main, width: cross, height: item.main };
      mainAt += item.main + between;
    }
    contentMain = Math.max(contentMain, taken);
    contentCross += lineCross + (lineIndex > 0 ? box.lineGap : 0);
    crossAt += lineCross + box.lineGap;
  });

  const main = boxMain ?? contentMain + padMain;
  const cross = boxCross ?? contentCross + padCross;
  return row ? { width: main, height: cross, placed } : { width: cross, height: main, placed };
}

/** Where the first child starts along the main axis, given the line's free space. */
function leading(distribute: Distribution, free: number): number {
  if (distribute === "center") return free / 2;
  if (distribute === "end") return free;
  return 0;
}

function crossOffset(align: CrossAlign, free: number): number {
  if (align === "center") return free / 2;
  if (align === "end") return free;
  return 0;
}
