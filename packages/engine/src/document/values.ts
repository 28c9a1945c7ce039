import { markupError, parseRichText } from "./rich-text.ts";
import type { TemplateDocumentT } from "./schema.ts";
import { didYouMean, isRecord, joinPath, type ValidationError } from "./validate-paths.ts";

/** The longest text one slot value may hold: 10,000 characters. */
export const MAX_TEXT_LENGTH = 10_000;
/** Same bound as an image layer's `src` in the document schema. */
export const MAX_IMAGE_REFERENCE_LENGTH = 2048;

const SLOT_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** `unknown_slot` maps to 422 unknown_slot at the HTTP layer; `invalid` to 400 invalid_request; `unencodable` (a QR code or barcode cannot hold the value) to 422 value_not_encodable. */
export type SlotValueErrorKind = "unknown_slot" | "invalid" | "unencodable";

export interface SlotValueError extends ValidationError {
  kind: SlotValueErrorKind;
  /** The slot name the value was given for. */
  slot: string;
}

export type SlotValuesResult =
  | { ok: true; values: Record<string, string> }
  | { ok: false; errors: SlotValueError[] };

/**
 * Checks values given for a template's slots (a request's modifications, or a template's `sample`).
 * Reports every problem, each once; slots not named keep the template's own content, so nothing is
 * required. Never throws.
 */
export function validateSlotValues(
  document: Pick<TemplateDocumentT, "slots">,
  values: unknown,
  basePath = "values",
): SlotValuesResult {
  try {
    return checkValues(document, values, basePath);
  } catch (error) {
    // Only reachable with hostile non-JSON input (throwing getters, proxies).
    return {
      ok: false,
      errors: [{ path: basePath, kind: "invalid", slot: "", message: `could not be read: ${String(error)}` }],
    };
  }
}

function checkValues(
  document: Pick<TemplateDocumentT, "slots">,
  values: unknown,
  basePath: string,
): SlotValuesResult {
  if (!isRecord(values)) {
    return {
      ok: false,
      errors: [
        { path: basePath, kind: "invalid", slot: "", message: "must be an object of slot name -> value" },
      ],
    };
  }
  const slots = new Map(document.slots.map((s) => [s.name, s]));
  const errors: SlotValueError[] = [];
  const accepted: [string, string][] = [];
  for (const name of Object.keys(values)) {
    const path = joinPath(basePath, name);
    const value = values[name];
    const slot = slots.get(name);
    const fail = (kind: SlotValueErrorKind, message: string) =>
      errors.push({ path, kind, slot: name, message });
    if (slot === undefined) {
      fail("unknown_slot", `slot ${JSON.stringify(name)} does not exist${didYouMean(name, slots.keys())}`);
    } else if (typeof value !== "string") {
      fail("invalid", `must be a string (${slot.type} slot), not ${describeType(value)}`);
    } else if (slot.type === "color") {
      if (!SLOT_COLOR.test(value)) fail("invalid", `must be a colour in the form "#RRGGBB"${echo(value)}`);
      else accepted.push([name, value]);
    } else if (slot.type === "text") {
      const limit = Math.min(slot.max_length ?? MAX_TEXT_LENGTH, MAX_TEXT_LENGTH);
      if (exceedsCharacters(value, limit)) {
        const why =
          slot.max_length !== undefined && slot.max_length <= MAX_TEXT_LENGTH
            ? " (the slot's max_length)"
            : "";
        fail("invalid", `must be at most ${limit} characters${why}`);
      } else {
        const markup = slot.rich === true ? parseRichText(value) : null;
        if (markup !== null && !markup.ok) fail("invalid", markupError(markup));
        else accepted.push([name, value]);
      }
    } else if (value === "") {
      fail("invalid", "must not be empty (an image URL or asset reference)");
    } else if (value.length > MAX_IMAGE_REFERENCE_LENGTH) {
      fail("invalid", `must be at most ${MAX_IMAGE_REFERENCE_LENGTH} characters`);
    } else accepted.push([name, value]);
    // Errors are capped so a body with a million unknown keys gets a bounded answer.
    if (errors.length >= 100) break;
  }
  if (errors.length > 0) return { ok: false, errors };
  // fromEntries defines properties, so a slot literally named "__proto__" stays a plain key.
  return { ok: true, values: Object.fromEntries(accepted) };
}

/** Counts Unicode code points (an emoji is one character, not two UTF-16 units), stopping early. */
function exceedsCharacters(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > limit * 2) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > limit) return true;
  }
  return false;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function echo(value: string): string {
  return value.length <= 32 ? ` (got ${JSON.stringify(value)})` : "";
}
