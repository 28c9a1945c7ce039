import type { Modification } from "../api/client.ts";
import type { SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";

/**
 * Slot values as the API's `modifications` list: text / image_url / color / number / date / items by
 * slot type. A value of another type than its slot's (a half-typed preview value) is left out.
 */
export function toModifications(doc: TemplateDocumentT, values: SlotValues): Modification[] {
  const out: Modification[] = [];
  for (const slot of doc.slots) {
    const value = values[slot.name];
    if (value === undefined) continue;
    if (slot.type === "number") {
      if (typeof value === "number") out.push({ name: slot.name, number: value });
    } else if (slot.type === "list") {
      if (Array.isArray(value)) out.push({ name: slot.name, items: value.map((item) => ({ ...item })) });
    } else if (typeof value !== "string") {
    } else if (slot.type === "text") out.push({ name: slot.name, text: value });
    else if (slot.type === "date") out.push({ name: slot.name, date: value });
    else if (slot.type === "image")
      out.push({ name: slot.name, image_url: value.replace(/^asset:\/\//, "") });
    else out.push({ name: slot.name, color: value });
  }
  return out;
}

/** The equivalent shell command for a render request. */
export function curlFor(origin: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2).replaceAll("'", "'\\''");
  return [
    `curl -sS ${origin}/v1/renders \\`,
    `  -H "Authorization: Bearer $PICTOR_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${json}'`,
  ].join("\n");
}
