import type { RenderWarning } from "../engine/engine-types.ts";

/**
 * Engine warnings that only inform: "this slot's default value was drawn" is what an empty preview
 * value means, not a problem with the design. They are listed in the Preview tab as notes and left
 * out of the tab's ⚠ count, which counts what a designer should look at.
 */
const NOTE_CODES: ReadonlySet<string> = new Set(["slot_default_used"]);

export function isNote(warning: RenderWarning): boolean {
  return NOTE_CODES.has(warning.code);
}
