import {
  layoutStack,
  type StackBox,
  type StackChild,
} from "../../packages/engine/src/render/layout/stack.ts";

/**
 * A stack of `count` children for timing the layout arithmetic alone (render/layout/stack.ts): a
 * wrapping row of mixed children, a third fixed, a third hugging text-like content (measured through
 * a function, as the painter's measures come in) and a third filling their line.
 */
export function layoutChildren(count: number): { box: StackBox; children: StackChild[] } {
  const children: StackChild[] = Array.from({ length: count }, (_, i) => {
    const kind = i % 3;
    if (kind === 0) {
      return {
        width: 40 + (i % 7) * 5,
        height: 24,
        sizing: { width: "fixed", height: "fixed" },
        stretches: true,
        measure: () => ({ width: 40, height: 24 }),
      };
    }
    const chars = 4 + (i % 11);
    return {
      width: 0,
      height: 0,
      sizing: kind === 1 ? { width: "hug", height: "hug" } : { width: "fill", height: "hug" },
      stretches: true,
      measure: (width) => {
        const natural = chars * 9;
        const w = width ?? natural;
        return { width: w, height: 22 * Math.max(1, Math.ceil(natural / Math.max(9, w))) };
      },
    };
  });
  const box: StackBox = {
    direction: "row",
    gap: 8,
    lineGap: 8,
    padding: { top: 12, right: 12, bottom: 12, left: 12 },
    align: "center",
    distribute: "start",
    wrap: true,
    width: 1104,
    height: null,
    maxWidth: Number.POSITIVE_INFINITY,
    maxHeight: Number.POSITIVE_INFINITY,
  };
  return { box, children };
}

export { layoutStack };
