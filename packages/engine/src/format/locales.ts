/**
 * Locales whose number and date formats ship with the engine (src/format/intl-data.json). A format's
 * locale resolves to the best of these (`de-DE` -> `de`, `pt-BR` -> `pt`, `en-US` -> `en`); one that
 * matches none is refused when the document is saved.
 */
export const FORMAT_LOCALES = [
  "en",
  "en-GB",
  "de",
  "de-CH",
  "fr",
  "es",
  "it",
  "nl",
  "pt",
  "pt-PT",
  "ja",
  "zh",
  "ko",
  "ar",
  "ar-EG",
  "ru",
  "pl",
  "sv",
  "tr",
  "hi",
] as const;
