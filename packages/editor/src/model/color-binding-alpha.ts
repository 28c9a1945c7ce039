import type { ColorBindingT } from "@pictor/engine";

/**
 * The alpha a colour binding gives the slot's colour, as the editor offers it: the design colour's
 * (what a binding does when it sets none), opaque (the slot's `#RRGGBB` as given: alpha 1, what
 * documents migrated from version 3 say), or a number set here.
 */
export const ALPHA_CHOICES = ["design", "opaque", "set"] as const;
export type AlphaChoice = (typeof ALPHA_CHOICES)[number];

/** The alpha a new "set" choice starts at (1 would be "opaque"). */
export const FIRST_SET_ALPHA = 0.5;

export function alphaChoice(options: ColorBindingT): AlphaChoice {
  if (options.alpha === undefined || options.alpha === "design") return "design";
  return options.alpha === 1 ? "opaque" : "set";
}

/** `options` with the alpha of `choice`; the default ("design") is written as no alpha at all. */
export function withAlphaChoice(options: ColorBindingT, choice: AlphaChoice): ColorBindingT {
  const { alpha, ...rest } = options;
  if (choice === "design") return rest;
  if (choice === "opaque") return { ...rest, alpha: 1 };
  return { ...rest, alpha: typeof alpha === "number" && alpha !== 1 ? alpha : FIRST_SET_ALPHA };
}
