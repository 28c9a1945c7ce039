import { parseRichText, plainTextOf } from "../../document/rich-text.ts";
import type { AnimationPreset } from "./preset.ts";

/**
 * Types a text layer's text character by character (code points; or erases it as an exit). A text
 * bound to a slot types that slot's value; rich markup is typed as its plain text and shown styled
 * once complete. Texts bound to a list item's field are shown whole.
 */
export const typewriter: AnimationPreset = {
  kinds: ["text"],
  apply(layer, away, _animation, scene) {
    let full = typeof layer.text === "string" ? layer.text : "";
    if (layer.bind?.text !== undefined) {
      const slot = scene.boundSlot(layer, "text");
      // Numbers, dates and list items are formatted when drawn: shown whole.
      if (slot === null || slot.type !== "text") return;
      const value = scene.valueOf(slot.name);
      if (typeof value === "string") full = slot.rich === true ? plainOf(value, scene.inlineStyles) : value;
      const { text: _typed, ...rest } = layer.bind;
      layer.bind = rest;
    }
    const characters = Array.from(full);
    layer.text = characters.slice(0, Math.round(characters.length * (1 - away))).join("");
  },
};

function plainOf(markup: string, inlineStyles: ReadonlySet<string>): string {
  const parsed = parseRichText(markup, inlineStyles);
  return parsed.ok ? plainTextOf(parsed.runs) : markup;
}
