import type { Tool } from "./editor-store.ts";

/** The toolbar's tools, each with its single-letter key. */
export const TOOLS: readonly { tool: Tool; label: string; icon: string; key: string }[] = [
  { tool: "select", label: "Select", icon: "↖", key: "V" },
  { tool: "text", label: "Text", icon: "T", key: "T" },
  { tool: "image", label: "Image", icon: "▣", key: "I" },
  { tool: "rectangle", label: "Rectangle", icon: "■", key: "R" },
  { tool: "ellipse", label: "Ellipse", icon: "●", key: "E" },
];

/** The tool of a key (lower case); undefined when no tool has it. */
export function toolOfKey(key: string): Tool | undefined {
  return TOOLS.find((t) => t.key.toLowerCase() === key)?.tool;
}
