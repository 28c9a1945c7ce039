import { type Static, Type as T } from "@sinclair/typebox";

/** Named page sizes, portrait, in millimetres (ISO 216 and North American sizes). */
export const PAGE_SIZES_MM = {
  A3: [297, 420],
  A4: [210, 297],
  A5: [148, 210],
  A6: [105, 148],
  letter: [215.9, 279.4],
  legal: [215.9, 355.6],
  tabloid: [279.4, 431.8],
} as const;

type PageName = keyof typeof PAGE_SIZES_MM;
const PAGE_NAMES = Object.keys(PAGE_SIZES_MM) as PageName[];

/**
 * How a frame prints (document v3): its page as a named size or `{ width, height, unit }`, turned
 * to `landscape` when asked (the longer side across); a PDF of the frame then has this page size
 * whatever density the caller sends. `bleed` (in the page's unit; millimetres for a named size):
 * the frame's pixels cover the page plus the bleed on every side, the PDF's trim box is the page
 * and its bleed box (and media box) the page plus the bleed; `crop_marks` adds marks at the trim
 * corners in a slug outside the bleed (the media box grows by it). `title` and `author` are written
 * into the PDF's metadata (the title defaults to the template's name). `dpi`: see below.
 */
export const FramePrint = T.Object(
  {
    page: T.Union([
      T.Union(PAGE_NAMES.map((name) => T.Literal(name))),
      T.Object(
        {
          width: T.Number({ exclusiveMinimum: 0, maximum: 5000 }),
          height: T.Number({ exclusiveMinimum: 0, maximum: 5000 }),
          unit: T.Union([T.Literal("mm"), T.Literal("in")]),
        },
        { additionalProperties: false },
      ),
    ]),
    orientation: T.Optional(T.Union([T.Literal("portrait"), T.Literal("landscape")])),
    bleed: T.Optional(T.Number({ minimum: 0, maximum: 100 })),
    crop_marks: T.Optional(T.Boolean()),
    /**
     * The print resolution the frame is designed at, in frame pixels per inch: the frame's `width`
     * and `height` must then be the page plus its bleed at that density (A4 at 300 dpi: 2480 x 3508),
     * so a page's pixels are stated once and checked at save.
     */
    dpi: T.Optional(T.Number({ minimum: 10, maximum: 2400 })),
    title: T.Optional(T.String({ maxLength: 500 })),
    author: T.Optional(T.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export type FramePrintT = Static<typeof FramePrint>;

const POINTS_PER_MM = 72 / 25.4;
/** Where crop marks go: a slug this wide outside the bleed. */
const SLUG_MM = 6;

/** A print page in PDF points: the trim (the page), the bleed round it and the slug for crop marks. */
export interface PrintGeometry {
  trimWidth: number;
  trimHeight: number;
  bleed: number;
  slug: number;
}

export function printGeometry(print: FramePrintT): PrintGeometry {
  const { page } = print;
  const perUnit = typeof page === "string" || page.unit === "mm" ? POINTS_PER_MM : 72;
  let [width, height] = typeof page === "string" ? PAGE_SIZES_MM[page] : [page.width, page.height];
  if (
    print.orientation === "landscape" ? width < height : print.orientation === "portrait" && width > height
  ) {
    [width, height] = [height, width];
  }
  return {
    trimWidth: width * perUnit,
    trimHeight: height * perUnit,
    bleed: (print.bleed ?? 0) * perUnit,
    slug: print.crop_marks === true ? SLUG_MM * POINTS_PER_MM : 0,
  };
}

/** The frame's pixel size a print page needs at `print.dpi` (page plus bleed), or null without one. */
export function printPixelSize(print: FramePrintT): { width: number; height: number } | null {
  if (print.dpi === undefined) return null;
  const page = printGeometry(print);
  const pixelsPerPoint = print.dpi / 72;
  return {
    width: Math.round((page.trimWidth + 2 * page.bleed) * pixelsPerPoint),
    height: Math.round((page.trimHeight + 2 * page.bleed) * pixelsPerPoint),
  };
}

/**
 * A frame that states its print resolution must have the pixel size of its page (and bleed) at it,
 * to the pixel (each side is rounded to a whole pixel).
 */
export function printSizeErrors(
  frame: { width: number; height: number; print?: FramePrintT },
  path: string,
): { path: string; message: string }[] {
  const wanted = frame.print === undefined ? null : printPixelSize(frame.print);
  if (wanted === null || frame.print === undefined) return [];
  const { page, dpi } = frame.print;
  const named = typeof page === "string" ? page : `${page.width} x ${page.height} ${page.unit}`;
  const bleed = (frame.print.bleed ?? 0) > 0 ? " plus its bleed" : "";
  const errors = [];
  for (const side of ["width", "height"] as const) {
    if (frame[side] !== wanted[side]) {
      errors.push({
        path: `${path}.${side}`,
        message: `must be ${wanted[side]} to print ${named}${frame.print.orientation === "landscape" ? " landscape" : ""}${bleed} at ${dpi} dpi (print.dpi); it is ${frame[side]}`,
      });
    }
  }
  return errors;
}
