import type { PaddingT } from "../document/common.ts";
import type { Insets } from "./layout/stack.ts";

/** A container's padding as four sides (none when absent). */
export function insetsOf(padding: PaddingT | undefined): Insets {
  if (padding === undefined) return { top: 0, right: 0, bottom: 0, left: 0 };
  if (typeof padding === "number") return { top: padding, right: padding, bottom: padding, left: padding };
  const [top, right, bottom, left] = padding;
  return { top, right, bottom, left };
}
