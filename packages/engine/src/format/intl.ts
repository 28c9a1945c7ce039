import { DateTimeFormat } from "@formatjs/intl-datetimeformat";
import { NumberFormat } from "@formatjs/intl-numberformat";
import { INTL_DATA_JSON } from "./intl-data.ts";
import { FORMAT_LOCALES } from "./locales.ts";

/**
 * The engine's own Intl: FormatJS's NumberFormat and DateTimeFormat (ponyfills: the runtime's Intl is
 * left as it is) with the CLDR data of FORMAT_LOCALES, generated from the pinned packages by
 * scripts/generate-intl-data.ts. Node and the editor's browser bundle run this same code on this same
 * data, so a formatted number or date is the same text in both whatever ICU each runtime ships (Node
 * and Chromium ship different ones, and a runtime built without full ICU knows only English).
 */
let loaded = false;

function load(): void {
  if (loaded) return;
  const data = JSON.parse(INTL_DATA_JSON) as { number: unknown[]; date: unknown[] };
  NumberFormat.__addLocaleData(
    ...(data.number as unknown as Parameters<typeof NumberFormat.__addLocaleData>),
  );
  DateTimeFormat.__addLocaleData(
    ...(data.date as unknown as Parameters<typeof DateTimeFormat.__addLocaleData>),
  );
  loaded = true;
}

const SHIPPED = new Map<string, string>(FORMAT_LOCALES.map((locale) => [locale.toLowerCase(), locale]));

/**
 * The shipped locale a tag resolves to, dropping subtags from the end until one matches (`de-DE` ->
 * `de`, `zh-Hant-TW` -> `zh`), or null when none does.
 */
export function shippedLocale(tag: string): string | null {
  const parts = tag.toLowerCase().split("-");
  for (let n = parts.length; n > 0; n--) {
    const found = SHIPPED.get(parts.slice(0, n).join("-"));
    if (found !== undefined) return found;
  }
  return null;
}

type NumberOptions = ConstructorParameters<typeof NumberFormat>[1];
type DateOptions = ConstructorParameters<typeof DateTimeFormat>[1];

// Formatters are costly to build and the same few recur in every render of a template.
const numberFormats = new Map<string, InstanceType<typeof NumberFormat>>();
const dateFormats = new Map<string, InstanceType<typeof DateTimeFormat>>();
const MAX_CACHED = 256;

// Formatting one number takes FormatJS tens of microseconds (decimal arithmetic in JS), and one
// request formats each list number three times (its value check, its image plan, its drawing); the
// same amounts and counts recur from render to render too.
const formattedNumbers = new Map<string, string>();
const MAX_FORMATTED = 2048;

/** `value` as the formatter for `locale` and `options` writes it. */
export function formattedNumber(locale: string, options: NumberOptions, value: number): string {
  const formatKey = `${locale}\u0000${JSON.stringify(options)}`;
  // Object.is keeps -0 apart from 0 (FormatJS writes "-0").
  const key = `${formatKey}\u0000${Object.is(value, -0) ? "-0" : value}`;
  const known = formattedNumbers.get(key);
  if (known !== undefined) return known;
  const text = numberFormatFor(formatKey, locale, options).format(value);
  if (formattedNumbers.size >= MAX_FORMATTED) formattedNumbers.clear();
  formattedNumbers.set(key, text);
  return text;
}

function numberFormatFor(
  key: string,
  locale: string,
  options: NumberOptions,
): InstanceType<typeof NumberFormat> {
  load();
  let format = numberFormats.get(key);
  if (format === undefined) {
    format = new NumberFormat(locale, options);
    if (numberFormats.size >= MAX_CACHED) numberFormats.clear();
    numberFormats.set(key, format);
  }
  return format;
}

export function dateFormat(locale: string, options: DateOptions): InstanceType<typeof DateTimeFormat> {
  load();
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new DateTimeFormat(locale, options);
    if (dateFormats.size >= MAX_CACHED) dateFormats.clear();
    dateFormats.set(key, format);
  }
  return format;
}
