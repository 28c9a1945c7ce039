import { readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { type FontSet, type SlotValue, type TemplateDocumentT, validateDocument } from "@pictor/engine";
import type { OutputFormat as ImageFormat, NodeRenderResult } from "@pictor/render-node";
import { type Command, InvalidArgumentError, Option } from "commander";
import { makeDirectories } from "../adapters/files/make-directories.ts";
import { isValidScale } from "../domain/scale.ts";
import { customFontSet } from "./custom-fonts.ts";
import { EXIT_FAILED, EXIT_USAGE, UsageError } from "./usage-error.ts";

/**
 * The render package, loaded when the command runs: every `pictor` command registers this one, and
 * `pictor serve`'s API thread should not carry the renderer's modules and sharp (docs/deploy.md, "Memory").
 */
type RenderNode = typeof import("@pictor/render-node");

/** What the command writes: an image, a PDF of one page per frame, or an animated frame's motion. */
type OutputFormat = ImageFormat | "pdf" | "gif" | "mp4";

interface RenderFlags {
  frame?: string;
  allFrames?: boolean;
  frames?: string[];
  dpi?: number;
  set: Record<string, string>;
  scale: number;
  format?: OutputFormat;
  quality?: number;
  output?: string;
  sample: boolean;
  animated?: boolean;
  fonts?: string;
}

const FORMAT_BY_EXTENSION: Record<string, OutputFormat> = {
  ".png": "png",
  ".jpg": "jpeg",
  ".jpeg": "jpeg",
  ".webp": "webp",
  ".pdf": "pdf",
  ".gif": "gif",
  ".mp4": "mp4",
};
const EXTENSION_BY_FORMAT: Record<OutputFormat, string> = {
  png: ".png",
  jpeg: ".jpg",
  webp: ".webp",
  pdf: ".pdf",
  gif: ".gif",
  mp4: ".mp4",
};
const REMOTE = /^https?:\/\//i;

function collectSet(pair: string, previous: Record<string, string>): Record<string, string> {
  const at = pair.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`expected slot=value, got "${pair}"`);
  return { ...previous, [pair.slice(0, at)]: pair.slice(at + 1) };
}

function parseScale(text: string): number {
  const scale = Number(text);
  if (text.trim() === "" || !Number.isFinite(scale)) throw new InvalidArgumentError("not a number");
  if (!isValidScale(scale)) throw new InvalidArgumentError("expected a number from 1 to 4");
  return scale;
}

/**
 * What -o may name, checked before any rendering: a file (not a directory), with an extension of a
 * format (or none) that agrees with --format.
 */
async function checkOutputFlag(output: string, format: OutputFormat, formatGiven: boolean): Promise<void> {
  const isDirectory = await stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (/[\\/]$/.test(output) || isDirectory) {
    throw new UsageError(`-o ${output} is a directory; give a file name, such as ${join(output, "out.png")}`);
  }
  const ext = extname(output).toLowerCase();
  if (ext === "") return;
  const named = FORMAT_BY_EXTENSION[ext];
  if (!named)
    throw new UsageError(
      `-o ${output}: '${ext}' is not a format Pictor writes (.png, .jpg, .webp, .pdf, .gif, .mp4)`,
    );
  if (formatGiven && named !== format) {
    throw new UsageError(`-o ${output} says ${named} but --format says ${format}; make them agree`);
  }
}

function parseFormat(text: string): OutputFormat {
  const format = FORMAT_BY_EXTENSION[`.${text.toLowerCase()}`];
  if (!format) throw new InvalidArgumentError("expected png, jpeg (jpg), webp, pdf, gif or mp4");
  return format;
}

function parseFrames(text: string): string[] {
  const names = text.split(",").map((n) => n.trim());
  if (names.some((n) => n === "")) throw new InvalidArgumentError("expected frame names separated by commas");
  return names;
}

function parseDpi(text: string): number {
  const dpi = Number(text);
  if (text.trim() === "" || !Number.isFinite(dpi) || dpi < 10 || dpi > 2400) {
    throw new InvalidArgumentError("expected a number from 10 to 2400");
  }
  return dpi;
}

function parseQuality(text: string): number {
  const quality = Number(text);
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
    throw new InvalidArgumentError("expected an integer from 1 to 100");
  }
  return quality;
}

export function registerRenderCommand(program: Command): void {
  program
    .command("render")
    .description(
      "Render a template file to PNG, JPEG, WebP, PDF, or (an animated frame) GIF, animated WebP or MP4, offline",
    )
    .argument("<template>", "template document (JSON file)")
    .option("--frame <name>", "frame to render (default: the first)")
    .addOption(
      new Option(
        "--all-frames",
        "render every frame; -o gets the frame name inserted (a PDF: one page per frame, in one file)",
      ).conflicts("frame"),
    )
    .addOption(
      new Option("--frames <a,b,...>", "PDF only: these frames, one page each in this order")
        .argParser(parseFrames)
        .conflicts(["frame", "allFrames"]),
    )
    .option("--dpi <n>", "PDF only: frame pixels per inch, which set the page size (default 96)", parseDpi)
    .option(
      "--set <slot=value>",
      "slot value (repeatable); image values are file paths relative to the current directory",
      collectSet,
      {},
    )
    .option("--scale <n>", "1 to 4, fractional allowed", parseScale, 1)
    .option(
      "--format <format>",
      "png, jpeg, webp, pdf, gif or mp4 (default: from -o, else png); gif and mp4 draw an animated frame's motion (mp4 needs ffmpeg)",
      parseFormat,
    )
    .option("--animated", "with webp: an animated WebP of the frame's motion (lossless unless --quality)")
    .option(
      "--quality <q>",
      "JPEG/WebP quality 1-100 (default 90); PDF: pages as JPEGs of this quality (default lossless)",
      parseQuality,
    )
    .option("-o, --output <file>", "output file (default: <template>[-<frame>].<format> here)")
    .option("--no-sample", "ignore the template's sample values")
    .option(
      "--fonts <dir>",
      "a folder of font files (TTF, OTF, WOFF, WOFF2) to draw with; a fonts/ folder beside the template is read too",
    )
    .action(async (template: string, flags: RenderFlags) => {
      process.exitCode = await renderCommand(template, flags);
    });
}

async function writeOutput(out: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFile(out, bytes).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      makeDirectories(dirname(out));
      await writeFile(out, bytes);
    });
  } catch (error) {
    throw new FileError(`cannot write ${out}: ${(error as Error).message}`);
  }
}

async function readTemplate(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read template ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NotATemplateError(`${path}: not valid JSON (${(error as Error).message})`);
  }
}

/** An output that cannot be written: one line, exit 1. */
class FileError extends Error {}

/** A file that is not JSON at all: a usage error (exit 2), like any other file that is not a template. */
class NotATemplateError extends Error {}

function imageSlotNames(document: TemplateDocumentT): Set<string> {
  return new Set(document.slots.filter((s) => s.type === "image").map((s) => s.name));
}

/**
 * `--set` values are text: a number slot's becomes a number and a list slot's is read as JSON (its
 * items), so the engine checks them as it checks an API request's. Text that is neither stays text,
 * and the engine refuses it with the slot's reason.
 */
function typedValues(document: TemplateDocumentT, values: Record<string, string>): Record<string, SlotValue> {
  const types = new Map(document.slots.map((slot) => [slot.name, slot.type]));
  const typed: Record<string, SlotValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const type = types.get(name);
    if (type === "number" && value.trim() !== "" && Number.isFinite(Number(value)))
      typed[name] = Number(value);
    else if (type === "list") typed[name] = parsedOr(value);
    else typed[name] = value;
  }
  return typed;
}

function parsedOr(value: string): SlotValue {
  try {
    return JSON.parse(value) as SlotValue;
  } catch {
    return value;
  }
}

/** Relative file paths become absolute against `base`; URLs and empty values stay as they are. */
function anchorImageValues(
  values: Readonly<Record<string, SlotValue>>,
  imageSlots: Set<string>,
  base: string,
): Record<string, SlotValue> {
  const anchored: Record<string, SlotValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const isFile =
      typeof value === "string" &&
      imageSlots.has(name) &&
      value !== "" &&
      !REMOTE.test(value) &&
      !isAbsolute(value);
    anchored[name] = isFile ? resolve(base, value as string) : value;
  }
  return anchored;
}

function outputPathFor(
  flags: RenderFlags,
  templatePath: string,
  format: OutputFormat,
  frame: string | null,
): string {
  const extension = EXTENSION_BY_FORMAT[format];
  if (!flags.output) {
    const stem = basename(templatePath, extname(templatePath));
    return resolve(`${stem}${frame ? `-${frame}` : ""}${extension}`);
  }
  if (!frame) return resolve(flags.output);
  const ext = extname(flags.output);
  return resolve(`${flags.output.slice(0, flags.output.length - ext.length)}-${frame}${ext || extension}`);
}

function formatSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Writes one output, prints its warnings, then its line: "wrote <file> (<size> <what>, <bytes>, <ms>)". */
async function writeAndReport(
  out: string,
  result: Pick<NodeRenderResult, "bytes" | "width" | "height" | "warnings">,
  frame: string | null,
  what: string,
  started: number,
): Promise<void> {
  await writeOutput(out, result.bytes);
  printWarnings(result, frame);
  const ms = Math.round(performance.now() - started);
  const warned = result.warnings.length ? `, ${result.warnings.length} warning(s)` : "";
  process.stdout.write(
    `wrote ${out} (${result.width}x${result.height} ${what}, ${formatSize(result.bytes.length)}, ${ms} ms${warned})\n`,
  );
}

function printWarnings(result: Pick<NodeRenderResult, "warnings">, frame: string | null): void {
  for (const w of result.warnings) {
    const where = [w.slot && `slot ${w.slot}`, w.layer && `layer ${w.layer}`, frame && `frame ${frame}`]
      .filter(Boolean)
      .join(", ");
    process.stderr.write(`warning ${w.code}${where ? ` (${where})` : ""}: ${w.message}\n`);
  }
}

/**
 * Failures worth a clear one-line message, with their exit code: what the user typed or pointed at is
 * wrong (a file that is not a template, a slot the template lacks, a value of the wrong form) is a
 * usage error, exit 2, as for every command; a render that failed on its input is exit 1. Anything
 * else is a bug.
 */
function describeFailure(
  error: unknown,
  templatePath: string,
  { InvalidDocumentError, InvalidSlotValuesError }: RenderNode,
): { message: string; exit: number } | null {
  const issues = (list: readonly { path: string; message: string }[]) =>
    list.map((i) => `${i.path || "(document)"}: ${i.message}`).join("; ");
  if (error instanceof InvalidDocumentError) {
    return { message: `${templatePath} is not a valid template: ${issues(error.issues)}`, exit: EXIT_USAGE };
  }
  if (error instanceof InvalidSlotValuesError) {
    return { message: `invalid slot values: ${issues(error.issues)}`, exit: EXIT_USAGE };
  }
  if (error instanceof NotATemplateError) return { message: error.message, exit: EXIT_USAGE };
  if (error instanceof FileError) return { message: error.message, exit: EXIT_FAILED };
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === "string" && /^[a-z]+(_[a-z]+)+$/.test(code)) {
    return { message: `${code}: ${error.message}`, exit: EXIT_FAILED };
  }
  return null;
}

/** The render package whose renderers draw with `fonts` (the shipped set when undefined). */
function withFonts(renderNode: RenderNode, fonts: FontSet | undefined): RenderNode {
  if (fonts === undefined) return renderNode;
  return {
    ...renderNode,
    createNodeRenderer: (options = {}) => renderNode.createNodeRenderer({ fonts, ...options }),
  };
}

async function renderCommand(templateArg: string, flags: RenderFlags): Promise<number> {
  const templatePath = resolve(templateArg);
  const templateDir = dirname(templatePath);
  const renderNode = withFonts(
    await import("@pictor/render-node"),
    await customFontSet(flags.fonts, templateDir),
  );
  const { createNodeRenderer, InvalidDocumentError, InvalidSlotValuesError } = renderNode;
  const format =
    flags.format ??
    (flags.output ? FORMAT_BY_EXTENSION[extname(flags.output).toLowerCase()] : undefined) ??
    "png";
  if (flags.quality !== undefined && (format === "png" || format === "gif" || format === "mp4")) {
    throw new UsageError("--quality applies to jpeg, webp and pdf only");
  }
  if (flags.animated === true && format !== "webp") {
    throw new UsageError(
      "--animated asks for an animated WebP; add --format webp (gif and mp4 are always animated)",
    );
  }
  if (format !== "pdf" && flags.frames !== undefined) {
    throw new UsageError("--frames makes a PDF of several pages; add --format pdf (or -o FILE.pdf)");
  }
  if (format !== "pdf" && flags.dpi !== undefined) {
    throw new UsageError("--dpi sets a PDF's page size; add --format pdf (or -o FILE.pdf)");
  }
  if (flags.output) await checkOutputFlag(flags.output, format, flags.format !== undefined);
  try {
    // Validated (and migrated to the current version) up front: frame names and sample values are
    // read from the document before the renderer sees it.
    const checked = validateDocument(await readTemplate(templatePath));
    if (!checked.ok) throw new InvalidDocumentError(checked.errors);
    const document = checked.document;
    const imageSlots = imageSlotNames(document);
    // The engine's own words for this ("an image URL or asset reference") are the API's; here an
    // image is a file.
    const emptyImages = Object.entries(flags.set).filter(([name, value]) => imageSlots.has(name) && !value);
    if (emptyImages.length > 0) {
      throw new InvalidSlotValuesError(
        emptyImages.map(([name]) => ({
          kind: "invalid" as const,
          slot: name,
          path: `values.${name}`,
          message: "must not be empty (the path of an image file)",
        })),
      );
    }
    const sample = flags.sample ? (document.sample ?? {}) : {};
    const values = {
      ...anchorImageValues(sample, imageSlots, templateDir),
      ...anchorImageValues(typedValues(document, flags.set), imageSlots, process.cwd()),
    };
    if (format === "pdf")
      return await renderPdfFile(document, values, flags, templateArg, templateDir, renderNode);
    if (format === "gif" || format === "mp4" || (format === "webp" && flags.animated === true)) {
      return await renderAnimationFile(document, values, flags, format, templateArg, templateDir, renderNode);
    }
    const frames: (string | null)[] = flags.allFrames
      ? document.frames.map((f) => f.name)
      : [flags.frame ?? null];

    const renderer = await createNodeRenderer();
    try {
      for (const frame of frames) {
        const started = performance.now();
        const result = await renderer.render(document, {
          frame: frame ?? undefined,
          values,
          scale: flags.scale,
          format: format as ImageFormat,
          quality: flags.quality,
          loadImage: (src, slot) => loadImageFile(src, slot, templateDir, renderNode),
        });
        const out = outputPathFor(flags, templateArg, format, flags.allFrames ? frame : null);
        await writeAndReport(out, result, frame, format, started);
      }
    } finally {
      renderer.dispose();
    }
    return 0;
  } catch (error) {
    const failure = describeFailure(error, templateArg, renderNode);
    if (failure === null) throw error;
    process.stderr.write(`pictor render: ${failure.message.replaceAll("\n", " ")}\n`);
    return failure.exit;
  }
}

/** The frames of a PDF, one page each: --frames in order, --all-frames, --frame, or the first. */
function pdfFrames(document: TemplateDocumentT, flags: RenderFlags): string[] {
  const known = document.frames.map((f) => f.name);
  const names = flags.frames ?? (flags.allFrames ? known : [flags.frame ?? (known[0] as string)]);
  for (const [i, name] of names.entries()) {
    if (!known.includes(name)) {
      throw new UsageError(`the template has no frame '${name}'; its frames: ${known.join(", ")}`);
    }
    if (names.indexOf(name) < i)
      throw new UsageError(`--frames names '${name}' twice; each frame is one page`);
  }
  return names;
}

async function renderPdfFile(
  document: TemplateDocumentT,
  values: Record<string, SlotValue>,
  flags: RenderFlags,
  templateArg: string,
  templateDir: string,
  renderNode: RenderNode,
): Promise<number> {
  const { createNodeRenderer, DEFAULT_PDF_DPI } = renderNode;
  const frames = pdfFrames(document, flags);
  const started = performance.now();
  const renderer = await createNodeRenderer();
  try {
    const result = await renderer.renderPdf(document, {
      frames,
      values,
      scale: flags.scale,
      ...(flags.dpi === undefined ? {} : { dpi: flags.dpi }),
      ...(flags.quality === undefined ? {} : { quality: flags.quality }),
      loadImage: (src, slot) => loadImageFile(src, slot, templateDir, renderNode),
    });
    const out = outputPathFor(flags, templateArg, "pdf", null);
    await writeOutput(out, result.bytes);
    printWarnings(result, null);
    const ms = Math.round(performance.now() - started);
    const warned = result.warnings.length ? `, ${result.warnings.length} warning(s)` : "";
    const pages = `${result.pages} page${result.pages === 1 ? "" : "s"}`;
    process.stdout.write(
      `wrote ${out} (${pages}: ${frames.join(", ")}; first page ${result.width}x${result.height} px at ${flags.dpi ?? DEFAULT_PDF_DPI} dpi, ${formatSize(result.bytes.length)}, ${ms} ms${warned})\n`,
    );
    return 0;
  } finally {
    renderer.dispose();
  }
}

async function renderAnimationFile(
  document: TemplateDocumentT,
  values: Record<string, SlotValue>,
  flags: RenderFlags,
  format: "gif" | "mp4" | "webp",
  templateArg: string,
  templateDir: string,
  renderNode: RenderNode,
): Promise<number> {
  const frames = flags.allFrames ? document.frames.map((f) => f.name) : [flags.frame ?? null];
  const renderer = await renderNode.createNodeRenderer();
  try {
    for (const frame of frames) {
      const started = performance.now();
      const result = await renderer.renderAnimation(document, {
        frame: frame ?? undefined,
        values,
        scale: flags.scale,
        format,
        ...(flags.quality === undefined ? {} : { quality: flags.quality }),
        loadImage: (src, slot) => loadImageFile(src, slot, templateDir, renderNode),
      });
      const out = outputPathFor(flags, templateArg, format, flags.allFrames ? frame : null);
      const kind = format === "webp" ? "animated webp" : format;
      await writeAndReport(
        out,
        result,
        frame,
        `${kind}, ${result.frames} frames at ${result.fps} fps, ${result.duration} s`,
        started,
      );
    }
    return 0;
  } finally {
    renderer.dispose();
  }
}

/**
 * Offline loader: reads files, refusing URLs. Paths still relative here are the template's own
 * (layer `src`, slot defaults), so they resolve against the template's folder.
 */
async function loadImageFile(
  src: string,
  slot: string | null,
  templateDir: string,
  { DEFAULT_IMAGE_LIMITS, ImageTooLargeError }: RenderNode,
): Promise<Uint8Array> {
  if (REMOTE.test(src)) {
    throw new Error("the CLI renders offline and does not download images; save the file and pass its path");
  }
  const path = resolve(templateDir, src);
  const { size } = await stat(path);
  if (size > DEFAULT_IMAGE_LIMITS.maxBytes) {
    throw new ImageTooLargeError(`${size} bytes is over the ${DEFAULT_IMAGE_LIMITS.maxBytes}-byte limit`, {
      slot,
      src,
    });
  }
  return new Uint8Array(await readFile(path));
}
