// jsbarcode's standalone encoders (no canvas, no DOM): what the engine needs, typed here because the
// package's own jsbarcode.d.ts describes only its top-level rendering API. Each encoder takes the value
// in its constructor; `valid()` says whether the symbology can hold it, and `encode()` (with
// `flat: true` for EAN/UPC) gives the modules as a string of "1" (bar) and "0" (space).
declare module "jsbarcode/bin/barcodes/Barcode.js" {
  // biome-ignore lint/style/noDefaultExport: the CommonJS module's `exports.default`.
  export default class Barcode {
    constructor(data: string, options: { flat?: boolean });
    /** The value as encoded (EAN-13 and UPC-A append the check digit to 12 and 11 digits). */
    readonly data: string;
    valid(): boolean;
    encode(): { data: string; text: string };
  }
}

declare module "jsbarcode/bin/barcodes/CODE128/index.js" {
  import type Barcode from "jsbarcode/bin/barcodes/Barcode.js";
  export const CODE128: typeof Barcode;
}

declare module "jsbarcode/bin/barcodes/EAN_UPC/index.js" {
  import type Barcode from "jsbarcode/bin/barcodes/Barcode.js";
  export const EAN13: typeof Barcode;
  export const UPC: typeof Barcode;
}
