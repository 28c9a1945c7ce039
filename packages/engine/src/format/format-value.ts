import { wallClockOf } from "../document/iso-date.ts";
import type { ValueFormatT } from "../document/value-format.ts";
import { dateFormat, formattedNumber, shippedLocale } from "./intl.ts";

/** The locale a template formats in when it names none. */
export const DEFAULT_LOCALE = "en";

/**
 * A number as a text layer's `format` shows it, in the format's locale, else the template's, else
 * English: `1234.5` -> `1,234.50` (en, decimals 2), `1.234,50 €` (de, currency EUR), `1.2K` (compact).
 */
export function formatNumber(
  value: number,
  format: ValueFormatT,
  templateLocale: string | undefined,
): string {
  const locale = localeOf(format, templateLocale);
  const style = format.style ?? "decimal";
  const digits =
    format.decimals !== undefined
      ? { minimumFractionDigits: format.decimals, maximumFractionDigits: format.decimals }
      : format.max_decimals !== undefined
        ? { minimumFractionDigits: 0, maximumFractionDigits: format.max_decimals }
        : {};
  const text = formattedNumber(
    locale,
    {
      ...(style === "compact" ? { notation: "compact" as const } : { style }),
      ...(style === "currency" ? { currency: format.currency ?? "USD" } : {}),
      ...(format.grouping === false ? { useGrouping: false } : {}),
      ...digits,
    },
    value,
  );
  return `${format.prefix ?? ""}${text}${format.suffix ?? ""}`;
}

/**
 * An ISO 8601 date as a text layer's `format` shows it: `date`/`time` styles, or `parts` (default the
 * `medium` date style). Shown as written: the wall-clock time at the value's offset (UTC when none).
 * Null when the text is not an ISO 8601 date.
 */
export function formatDate(
  iso: string,
  format: ValueFormatT,
  templateLocale: string | undefined,
): string | null {
  const time = wallClockOf(iso);
  if (time === null) return null;
  const locale = localeOf(format, templateLocale);
  const styles =
    format.parts !== undefined
      ? { ...format.parts }
      : {
          ...(format.date !== undefined || format.time === undefined
            ? { dateStyle: format.date ?? "medium" }
            : {}),
          ...(format.time !== undefined ? { timeStyle: format.time } : {}),
        };
  const text = dateFormat(locale, { ...styles, timeZone: "UTC" }).format(time);
  return `${format.prefix ?? ""}${text}${format.suffix ?? ""}`;
}

function localeOf(format: ValueFormatT, templateLocale: string | undefined): string {
  return shippedLocale(format.locale ?? templateLocale ?? DEFAULT_LOCALE) ?? DEFAULT_LOCALE;
}
