import type { SlotValue } from "../api.ts";
import { inlineStyleNames } from "./inline-styles.ts";
import { wallClockOf } from "./iso-date.ts";
import { markupError, parseRichText } from "./rich-text.ts";
import { type ListSlotT, MAX_LIST_ITEMS, type SlotT, type TemplateDocumentT } from "./schema.ts";
import { didYouMean, isRecord, joinPath, quoteList, type ValidationError } from "./validate-paths.ts";

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
  /** Where inside the value the problem is (`[2].name`: a list item's field); absent or "" for the value itself. */
  within?: string;
}

export type SlotValuesResult =
  | { ok: true; values: Record<string, SlotValue> }
  | { ok: false; errors: SlotValueError[] };

/**
 * Checks values given for a template's slots (a request's modifications, or a template's `sample`).
 * Reports every problem, each once; slots not named keep the template's own content, so nothing is
 * required. Never throws.
 */
export function validateSlotValues(
  document: Pick<TemplateDocumentT, "slots" | "inline_styles">,
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

/** A problem with one value (or a part of it), relative to where the value sits. */
interface Problem {
  /** Steps below the value (`[2].name` for a list item's field), "" for the value itself. */
  at: string;
  message: string;
}

function checkValues(
  document: Pick<TemplateDocumentT, "slots" | "inline_styles">,
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
  const accepted: [string, SlotValue][] = [];
  for (const name of Object.keys(values)) {
    const path = joinPath(basePath, name);
    const value = values[name];
    const slot = slots.get(name);
    if (slot === undefined) {
      errors.push({
        path,
        kind: "unknown_slot",
        slot: name,
        message: `slot ${JSON.stringify(name)} does not exist${didYouMean(name, slots.keys())}`,
      });
    } else {
      const problems = slotValueProblems(slot, value, inlineStyleNames(document));
      for (const { at, message } of problems)
        errors.push({
          path: path + at,
          kind: "invalid",
          slot: name,
          message,
          ...(at === "" ? {} : { within: at }),
        });
      if (problems.length === 0) accepted.push([name, value as SlotValue]);
    }
    // Errors are capped so a body with a million unknown keys gets a bounded answer.
    if (errors.length >= 100) break;
  }
  if (errors.length > 0) return { ok: false, errors };
  // fromEntries defines properties, so a slot literally named "__proto__" stays a plain key.
  return { ok: true, values: Object.fromEntries(accepted) };
}

/** What is wrong with one slot's value; empty when the value is good. */
export function slotValueProblems(
  slot: SlotT,
  value: unknown,
  inlineStyles: ReadonlySet<string> = new Set(),
): Problem[] {
  switch (slot.type) {
    case "number":
      return numberProblems(value, slot.min, slot.max);
    case "date":
      return dateProblems(value);
    case "list":
      return listProblems(slot, value);
    default:
      return scalarProblems(slot.type, value, slot.type === "text" ? { ...slot, inlineStyles } : {});
  }
}

const one = (message: string): Problem[] => [{ at: "", message }];

/** Text, image and colour values (of slots, or of list item fields). */
function scalarProblems(
  type: "text" | "image" | "color",
  value: unknown,
  text: { max_length?: number; rich?: boolean; inlineStyles?: ReadonlySet<string> },
  what = "slot",
): Problem[] {
  if (typeof value !== "string") return one(`must be a string (${type} ${what}), not ${describeType(value)}`);
  if (type === "color") {
    return SLOT_COLOR.test(value) ? [] : one(`must be a colour in the form "#RRGGBB"${echo(value)}`);
  }
  if (type === "text") {
    const limit = Math.min(text.max_length ?? MAX_TEXT_LENGTH, MAX_TEXT_LENGTH);
    if (exceedsCharacters(value, limit)) {
      const why =
        text.max_length !== undefined && text.max_length <= MAX_TEXT_LENGTH
          ? ` (the ${what}'s max_length)`
          : "";
      return one(`must be at most ${limit} characters${why}`);
    }
    const markup = text.rich === true ? parseRichText(value, text.inlineStyles) : null;
    return markup !== null && !markup.ok ? one(markupError(markup)) : [];
  }
  if (value === "") return one("must not be empty (an image URL or asset reference)");
  if (value.length > MAX_IMAGE_REFERENCE_LENGTH)
    return one(`must be at most ${MAX_IMAGE_REFERENCE_LENGTH} characters`);
  return [];
}

function numberProblems(value: unknown, min: number | undefined, max: number | undefined): Problem[] {
  if (typeof value !== "number") return one(`must be a number (number slot), not ${describeType(value)}`);
  if (!Number.isFinite(value)) return one("must be a finite number");
  if (min !== undefined && value < min) return one(`must be at least ${min} (the slot's min)`);
  if (max !== undefined && value > max) return one(`must be at most ${max} (the slot's max)`);
  return [];
}

function dateProblems(value: unknown): Problem[] {
  if (typeof value !== "string")
    return one(`must be an ISO 8601 date string (date slot), not ${describeType(value)}`);
  if (wallClockOf(value) === null) {
    return one(`must be an ISO 8601 date such as "2026-11-28" or "2026-11-28T18:30:00Z"${echo(value)}`);
  }
  return [];
}

function listProblems(slot: ListSlotT, value: unknown): Problem[] {
  if (!Array.isArray(value)) return one(`must be an array of items (list slot), not ${describeType(value)}`);
  const limit = Math.min(slot.max_items ?? MAX_LIST_ITEMS, MAX_LIST_ITEMS);
  if (value.length > limit) {
    const why =
      slot.max_items !== undefined && slot.max_items < MAX_LIST_ITEMS ? " (the slot's max_items)" : "";
    return one(`must hold at most ${limit} items${why}, not ${value.length}`);
  }
  const fields = new Map(slot.fields.map((field) => [field.name, field]));
  const problems: Problem[] = [];
  value.forEach((item: unknown, i) => {
    const itemAt = joinPath("", i);
    if (!isRecord(item)) {
      problems.push({
        at: itemAt,
        message: `must be an object of field name -> value, not ${describeType(item)}`,
      });
      return;
    }
    for (const field of slot.fields) {
      if (field.required === true && !Object.hasOwn(item, field.name)) {
        problems.push({ at: itemAt, message: `lacks the required field ${JSON.stringify(field.name)}` });
      }
    }
    for (const key of Object.keys(item)) {
      const field = fields.get(key);
      const at = joinPath(itemAt, key);
      if (field === undefined) {
        problems.push({
          at,
          message: `is not a field of the list's items${didYouMean(key, fields.keys())}; fields: ${quoteList([...fields.keys()])}`,
        });
        continue;
      }
      const found =
        field.type === "number"
          ? numberProblems(item[key], undefined, undefined)
          : scalarProblems(field.type, item[key], field, "field");
      for (const problem of found) problems.push({ at: at + problem.at, message: problem.message });
    }
  });
  return problems.slice(0, 100);
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
