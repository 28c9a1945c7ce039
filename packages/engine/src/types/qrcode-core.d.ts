// The `qrcode` package's encoder core (no renderers, no canvas): what the engine needs, typed here
// because @types/qrcode describes only the package's top-level API.
declare module "qrcode/lib/core/qrcode.js" {
  interface QrSymbol {
    modules: { size: number; data: Uint8Array };
    version: number;
  }
  const qrcode: {
    create(text: string, options: { errorCorrectionLevel: "L" | "M" | "Q" | "H" }): QrSymbol;
  };
  // biome-ignore lint/style/noDefaultExport: the CommonJS module is its default export.
  export default qrcode;
}
