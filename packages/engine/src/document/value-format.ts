import { type Static, Type as T } from "@sinclair/typebox";
import { shippedLocale } from "../format/intl.ts";
import { FORMAT_LOCALES } from "../format/locales.ts";
import type { ValidationError } from "./validate-paths.ts";

/** A BCP 47 language tag such as `en-US`, `de-DE`, `ar-EG`; matched to the locales the engine ships. */
export const LocaleTag = T.String({
  pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
  maxLength: 35,
  description: "BCP 47 locale (en-US, de-DE, ar-EG, ...)",
});

/**
 * How a text layer shows the number or date slot its text is bound to. Number options: `style`
 * (`decimal`, `percent`: 0.72 -> 72 %, `currency` with `currency`, `compact`: 1,234 -> 1.2K),
 * `decimals` (exactly this many) or `max_decimals`, `grouping` (thousands separators, default on).
 * Date options: `date` and `time` styles, or `parts` for a pattern of its own. `prefix` and `suffix`
 * are added as written; `locale` overrides the template's.
 */
export const ValueFormat = T.Object(
  {
    locale: T.Optional(LocaleTag),
    style: T.Optional(
      T.Union([T.Literal("decimal"), T.Literal("percent"), T.Literal("currency"), T.Literal("compact")], {
        default: "decimal",
      }),
    ),
    /** ISO 4217 code, with style `currency`. */
    currency: T.Optional(T.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217 code (EUR, USD, JPY)" })),
    /** Exactly this many digits after the decimal separator. */
    decimals: T.Optional(T.Integer({ minimum: 0, maximum: 20 })),
    /** At most this many digits after the decimal separator (trailing zeros dropped). */
    max_decimals: T.Optional(T.Integer({ minimum: 0, maximum: 20 })),
    grouping: T.Optional(T.Boolean({ default: true })),
    date: T.Optional(
      T.Union([T.Literal("full"), T.Literal("long"), T.Literal("medium"), T.Literal("short")]),
    ),
    time: T.Optional(T.Union([T.Literal("medium"), T.Literal("short")])),
    /** A date pattern of its own: which parts to show and how (the locale orders and punctuates them). */
    parts: T.Optional(
      T.Object(
        {
          weekday: T.Optional(T.Union([T.Literal("long"), T.Literal("short"), T.Literal("narrow")])),
          year: T.Optional(T.Union([T.Literal("numeric"), T.Literal("2-digit")])),
          month: T.Optional(
            T.Union([
              T.Literal("numeric"),
              T.Literal("2-digit"),
              T.Literal("long"),
              T.Literal("short"),
              T.Literal("narrow"),
            ]),
          ),
          day: T.Optional(T.Union([T.Literal("numeric"), T.Literal("2-digit")])),
          hour: T.Optional(T.Union([T.Literal("numeric"), T.Literal("2-digit")])),
          minute: T.Optional(T.Union([T.Literal("numeric"), T.Literal("2-digit")])),
          hour12: T.Optional(T.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    prefix: T.Optional(T.String({ maxLength: 50 })),
    suffix: T.Optional(T.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

export type ValueFormatT = Static<typeof ValueFormat>;

/** A locale the engine has no formats for: the error, or null when it resolves to a shipped one. */
export function localeError(tag: string, path: string): ValidationError | null {
  if (shippedLocale(tag) !== null) return null;
  return {
    path,
    message: `no formats ship for locale ${JSON.stringify(tag)}; locales: ${FORMAT_LOCALES.join(", ")}`,
  };
}

/** Rules of a format JSON Schema cannot express. */
export function valueFormatErrors(format: ValueFormatT, path: string): ValidationError[] {
  const errors: ValidationError[] = [];
  const locale = format.locale === undefined ? null : localeError(format.locale, `${path}.locale`);
  if (locale !== null) errors.push(locale);
  if (format.style === "currency" && format.currency === undefined) {
    errors.push({
      path: `${path}.currency`,
      message: 'is required with style "currency" (an ISO 4217 code such as "EUR")',
    });
  }
  if (format.currency !== undefined && format.style !== "currency") {
    errors.push({ path: `${path}.currency`, message: 'applies with style "currency" only' });
  }
  if (format.decimals !== undefined && format.max_decimals !== undefined) {
    errors.push({
      path: `${path}.max_decimals`,
      message: "give decimals (exactly) or max_decimals (at most), not both",
    });
  }
  if (format.parts !== undefined && (format.date !== undefined || format.time !== undefined)) {
    errors.push({ path: `${path}.parts`, message: "give date/time styles or parts, not both" });
  }
  return errors;
}
