import { TOOL_CREATORS } from "../layer-forms/registry.ts";
import type { Tool } from "../store/editor-store.ts";

/** The toolbar's tools: select, then the layer kinds a drag on a frame creates (layer-forms/). */
export const TOOLS: readonly { tool: Tool; label: string; icon: string; key: string }[] = [
  { tool: "select", label: "Select", icon: "↖", key: "V" },
  ...TOOL_CREATORS.map((c) => ({ tool: c.id, label: c.label, icon: c.icon, key: c.key ?? "" })),
];

/** The tool of a key (lower case); undefined when no tool has it. */
export function toolOfKey(key: string): Tool | undefined {
  return TOOLS.find((t) => t.key !== "" && t.key.toLowerCase() === key)?.tool;
}
