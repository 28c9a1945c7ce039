import { afterEach, describe, expect, it } from "vitest";
import { validateDocument } from "../../src/document/validate.ts";
import type { ValueFormatT } from "../../src/document/value-format.ts";
import { formatDate, formatNumber } from "../../src/format/format-value.ts";
import { shippedLocale } from "../../src/format/intl.ts";
import { Bindings } from "../../src/render/bindings.ts";
import { validDocument } from "./helpers.ts";

const NUMBERS = [0, 7, -42, 1234.5, 1234567.891, 0.725, 999999, 1_250_000, -0.5];

/** Each format with the Intl.NumberFormat options it stands for. */
const FORMATS: [string, ValueFormatT, Intl.NumberFormatOptions][] = [
  ["plain", {}, {}],
  ["2 decimals", { decimals: 2 }, { minimumFractionDigits: 2, maximumFractionDigits: 2 }],
  ["at most 1 decimal", { max_decimals: 1 }, { minimumFractionDigits: 0, maximumFractionDigits: 1 }],
  ["no grouping", { grouping: false }, { useGrouping: false }],
  ["percent", { style: "percent" }, { style: "percent" }],
  ["EUR", { style: "currency", currency: "EUR" }, { style: "currency", currency: "EUR" }],
  [
    "USD, 0 decimals",
    { style: "currency", currency: "USD", decimals: 0 },
    { style: "currency", currency: "USD", minimumFractionDigits: 0, maximumFractionDigits: 0 },
  ],
  ["JPY", { style: "currency", currency: "JPY" }, { style: "currency", currency: "JPY" }],
  ["compact", { style: "compact" }, { notation: "compact" }],
];

describe("number formats against Intl.NumberFormat", () => {
  for (const locale of ["en-US", "de-DE", "ar-EG"]) {
    it.each(FORMATS)(`${locale}: %s`, (_name, format, options) => {
      for (const n of NUMBERS) {
        expect(formatNumber(n, { ...format, locale }, undefined), `${n}`).toBe(
          new Intl.NumberFormat(locale, options).format(n),
        );
      }
    });
  }

  it("shows the expected text in each of the three (Node's ICU and the data agree on these)", () => {
    expect(formatNumber(1234.5, { decimals: 2 }, "en-US")).toBe("1,234.50");
    expect(formatNumber(1234.5, { style: "currency", currency: "EUR" }, "de-DE")).toBe("1.234,50\u00a0€");
    expect(formatNumber(1234.5, { decimals: 2 }, "ar-EG")).toBe("١٬٢٣٤٫٥٠");
    expect(formatNumber(1234, { style: "compact" }, "en")).toBe("1.2K");
  });

  it("writes a number formatted before the same way (from the kept texts), -0 apart from 0", () => {
    for (let round = 0; round < 2; round++) {
      expect(formatNumber(-0, {}, "en-US")).toBe(new Intl.NumberFormat("en-US").format(-0));
      expect(formatNumber(0, {}, "en-US")).toBe("0");
      expect(formatNumber(1234.5, { decimals: 2 }, "de-DE")).toBe("1.234,50");
      expect(formatNumber(1234.5, { decimals: 2 }, "en-US")).toBe("1,234.50");
    }
  });

  it("adds prefix and suffix as written; the format's locale overrides the template's", () => {
    expect(formatNumber(72, { suffix: " %", prefix: "≈ " }, "en")).toBe("≈ 72 %");
    expect(formatNumber(1234.5, { locale: "de-DE", decimals: 1 }, "en-US")).toBe("1.234,5");
    expect(formatNumber(1234.5, { decimals: 1 }, "fr")).toBe("1\u202f234,5");
  });
});

describe("the engine's formats do not come from the runtime's Intl", () => {
  const native = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
  afterEach(() => Object.assign(Intl, native));

  it("formats numbers and dates the same with the runtime's NumberFormat and DateTimeFormat broken", () => {
    const before = [
      formatNumber(98765.4321, { decimals: 3 }, "de-DE"),
      formatNumber(98765.4321, { style: "currency", currency: "EGP" }, "ar-EG"),
      formatDate("2026-11-28", { date: "long" }, "de-DE"),
    ];
    const refuse = () => {
      throw new Error("the runtime's Intl was used");
    };
    // A runtime with another ICU (or none) would answer differently; this one cannot answer at all.
    Object.assign(Intl, { NumberFormat: refuse, DateTimeFormat: refuse });
    const after = [
      formatNumber(98765.4321, { decimals: 3 }, "de-DE"),
      formatNumber(98765.4321, { style: "currency", currency: "EGP" }, "ar-EG"),
    ];
    Object.assign(Intl, native);
    expect(after).toEqual(before.slice(0, 2));
    expect(before[2]).toBe("28. November 2026");
  });
});

describe("date formats", () => {
  it.each([
    ["en-US", { date: "medium" }, "Nov 28, 2026"],
    ["en-US", { date: "full" }, "Saturday, November 28, 2026"],
    ["de-DE", { date: "long" }, "28. November 2026"],
    ["de-DE", { date: "short" }, "28.11.26"],
    ["ar-EG", { date: "long" }, "٢٨ نوفمبر ٢٠٢٦"],
    ["en-GB", { parts: { weekday: "short", day: "numeric", month: "short" } }, "Sat 28 Nov"],
    ["en-US", { time: "short" }, "6:30\u202fPM"],
  ] as [string, ValueFormatT, string][])("%s %j -> %s", (locale, format, expected) => {
    expect(formatDate("2026-11-28T18:30:00Z", format, locale)).toBe(expected);
  });

  it("shows the wall-clock time at the value's own offset, whatever the machine's time zone", () => {
    expect(formatDate("2026-11-28T23:30:00-05:00", { date: "short", time: "short" }, "en-US")).toBe(
      "11/28/26, 11:30\u202fPM",
    );
    expect(formatDate("2026-11-28", {}, "en")).toBe("Nov 28, 2026");
  });
});

describe("format in documents and through Bindings", () => {
  it("resolves locales to the shipped ones and refuses those it has no formats for", () => {
    expect(shippedLocale("de-DE")).toBe("de");
    expect(shippedLocale("ar-EG")).toBe("ar-EG");
    expect(shippedLocale("zh-Hant-TW")).toBe("zh");
    expect(shippedLocale("xx")).toBeNull();
    const doc = validDocument();
    doc.locale = "xx-YY";
    const layer = doc.frames[0]?.layers[0] as Record<string, unknown>;
    layer.format = { style: "currency", locale: "de-DE" };
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      "frames[0].layers[0].format.currency",
      "locale",
    ]);
  });

  it("a text layer bound to a number slot shows it formatted; a date slot as a date", () => {
    const doc = {
      locale: "de-DE",
      slots: [
        { name: "raised", type: "number" as const },
        { name: "ends", type: "date" as const },
      ],
    };
    const bindings = new Bindings(doc, { raised: 7250.5, ends: "2026-12-24" }, null);
    const euros: ValueFormatT = { style: "currency", currency: "EUR", decimals: 0 };
    expect(bindings.formatted({ text: "raised" }, "text", "0", "p", "t", euros).value).toBe("7.251\u00a0€");
    expect(bindings.formatted({ text: "ends" }, "text", "", "p", "t", { date: "long" }).value).toBe(
      "24. Dezember 2026",
    );
    expect(bindings.formatted({ text: "raised" }, "text", "", "p", "t", undefined).value).toBe("7250.5");
    expect(bindings.formatted(undefined, "text", "as designed", "p", "t", euros).value).toBe("as designed");
  });
});
