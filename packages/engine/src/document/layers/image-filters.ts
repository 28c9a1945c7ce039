import { type Static, Type as T } from "@sinclair/typebox";

/**
 * Image filters (the `filters` of an image layer), as CSS `filter` functions define them. Each value
 * left out does nothing. They apply in a fixed order: brightness, contrast, saturation, grayscale,
 * sepia, duotone (each clamped to 0..1, as CSS clamps between functions), then blur.
 *
 * - `brightness`: multiplier, 0 black, 1 unchanged (CSS `brightness()`), up to 4.
 * - `contrast`: multiplier about mid grey, 0 all grey, 1 unchanged (CSS `contrast()`), up to 4.
 * - `saturation`: multiplier, 0 grey, 1 unchanged, 2 twice as vivid (CSS `saturate()`), up to 4.
 * - `grayscale`, `sepia`: amount 0..1 (CSS `grayscale()`, `sepia()`).
 * - `duotone`: maps each pixel's luminance (Rec. 709, as grayscale) from `dark` (black) to `light`
 *   (white); `#RRGGBB` colours, bindable to colour slots (`filters.duotone.dark`, `.light`).
 * - `blur`: Gaussian standard deviation in template px (CSS `blur()`), up to 100. The image stays
 *   inside its box with sharp edges (the edge pixels extend under the blur), like a blurred backdrop.
 */
const OpaqueHexColor = T.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "#RRGGBB" });

const Multiplier = T.Number({ minimum: 0, maximum: 4, default: 1 });
const Amount = T.Number({ minimum: 0, maximum: 1, default: 0 });

export const ImageFilters = T.Object(
  {
    brightness: T.Optional(Multiplier),
    contrast: T.Optional(Multiplier),
    saturation: T.Optional(Multiplier),
    grayscale: T.Optional(Amount),
    sepia: T.Optional(Amount),
    duotone: T.Optional(
      T.Object({ dark: OpaqueHexColor, light: OpaqueHexColor }, { additionalProperties: false }),
    ),
    blur: T.Optional(T.Number({ minimum: 0, maximum: 100, default: 0 })),
  },
  { additionalProperties: false },
);

export type ImageFiltersT = Static<typeof ImageFilters>;

/** Bindable properties the filters add to an image layer. */
export const DUOTONE_BINDABLE = {
  "filters.duotone.dark": "color",
  "filters.duotone.light": "color",
} as const;
