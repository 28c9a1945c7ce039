import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import {
  type BatchResponse,
  type BatchRow,
  Pictor,
  PictorError,
  type RenderJob,
  type Template,
  type TemplateSchema,
} from "@pictor/client";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { parse as parseCsv } from "csv-parse/sync";
// The API's limits per batch request: 1,000 rows, a 10 MiB body. Plain constants
// of the domain, no server code; a server with a lower body limit is handled by halving on its 413.
import { BATCH_BODY_LIMIT, canonicalJson, MAX_BATCH_ROWS } from "../domain/batches.ts";
import { EXIT_FAILED, UsageError } from "./usage-error.ts";

interface BatchFlags {
  template: string;
  url: string;
  key?: string;
  output?: string;
  results?: string;
  nameColumn?: string;
  chunk: number;
  progress: boolean;
  preflight?: boolean;
}

/** One line of the results CSV. `row` is the line number in the input file (JSON: element number). */
export interface ResultRecord {
  row: number;
  id: string;
  status: "completed" | "failed" | "refused" | "queued" | "rendering";
  asset_url: string;
  error: string;
  file: string;
  /** A hash of the row's request, so a rerun knows whether the row changed. */
  content: string;
  /**
   * The row's idempotency key (`idempotency_key`) it was last sent with: derived from its content
   * (rowKey), or after a failed render a key chained on the previous one (retryKey).
   */
  key: string;
}
const RESULT_COLUMNS: (keyof ResultRecord)[] = [
  "row",
  "id",
  "status",
  "asset_url",
  "error",
  "file",
  "content",
  "key",
];

/** Refusals that sending the same row again cannot change; any other refusal (credits, a rate limit) is retried. */
const PERMANENT_REFUSALS = new Set([
  "invalid_request",
  "payload_too_large",
  "invalid_scale",
  "unknown_slot",
  "invalid_webhook_url",
  "image_out_of_folder",
]);

/** Columns that are render options, not slot names. */
const OPTION_COLUMNS = new Set(["scale", "format", "quality", "frame", "webhook_url", "tags"]);
const FORMATS = new Set(["png", "jpg", "jpeg", "webp"]);
const EXTENSION: Record<string, string> = { png: ".png", jpg: ".jpg", jpeg: ".jpg", webp: ".webp" };
const HEX = /^#[0-9A-Fa-f]{6}$/;

interface InputRow {
  line: number;
  values: Record<string, string>;
}

function parseChunk(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_BATCH_ROWS) {
    throw new InvalidArgumentError(`expected an integer from 1 to ${MAX_BATCH_ROWS}`);
  }
  return n;
}

export function registerBatchCommand(program: Command): void {
  program
    .command("batch")
    .description("Render every row of a CSV or JSON file through a Pictor server, resumably")
    .argument("<file>", "rows: a CSV with a header line, or a JSON array of objects")
    .requiredOption("--template <key>", "template key (or id) to render each row with")
    .option("--url <url>", "server URL (PICTOR_URL)", process.env.PICTOR_URL ?? "http://127.0.0.1:8080")
    .option("--key <key>", "API key (PICTOR_API_KEY)")
    .option("-o, --output <dir>", "folder for the images (default: <file>-renders next to the file)")
    .option("--results <file>", "results CSV (default: results.csv in the output folder)")
    .option("--name-column <column>", "name each image after this column (default: the row number)")
    .option("--chunk <n>", `rows per batch request, 1 to ${MAX_BATCH_ROWS}`, parseChunk, MAX_BATCH_ROWS)
    .option("--no-progress", "no progress bar (a summary line only)")
    .option(
      "--preflight",
      "check every row without rendering (free): print what each would cost and report, send nothing to render",
    )
    .action(async (file: string, flags: BatchFlags) => {
      try {
        process.exitCode = await batchCommand(file, flags);
      } catch (error) {
        // The server refused the whole request, or could not be reached after the client's retries:
        // one line; the results file keeps what was done, and a rerun goes on from there.
        if (!(error instanceof PictorError)) throw error;
        const request = error.requestId ? ` (request ${error.requestId})` : "";
        process.stderr.write(`pictor batch: ${error.code}: ${error.message}${request}\n`);
        process.exitCode = EXIT_FAILED;
      }
    });
}

async function readRows(path: string): Promise<InputRow[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (extname(path).toLowerCase() === ".json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${path}: not valid JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(parsed))
      throw new UsageError(`${path}: expected a JSON array of objects, one per render`);
    return parsed.map((item, i) => {
      if (item === null || typeof item !== "object" || Array.isArray(item)) {
        throw new UsageError(`${path}: element ${i + 1} is not an object`);
      }
      const values: Record<string, string> = {};
      for (const [k, v] of Object.entries(item)) {
        if (v !== null && v !== undefined) values[k] = typeof v === "string" ? v : String(v);
      }
      return { line: i + 1, values };
    });
  }
  try {
    const records = parseCsv(text, {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      trim: false,
      info: true,
    }) as {
      record: Record<string, string>;
      info: { lines: number };
    }[];
    return records.map(({ record, info }) => ({ line: info.lines, values: record }));
  } catch (error) {
    throw new UsageError(`${path}: not a CSV file this command can read (${(error as Error).message})`);
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The render request of a row, or what is wrong with it. */
export function rowBody(
  row: InputRow,
  template: string,
  slots: Map<string, string>,
  nameColumn: string | undefined,
): { body: BatchRow } | { error: string } {
  const modifications: BatchRow["modifications"] = [];
  const metadata: Record<string, string> = {};
  const body: BatchRow = { template, modifications };
  for (const [column, raw] of Object.entries(row.values)) {
    const value = raw.trim() === "" ? "" : raw;
    if (column === nameColumn || value === "") continue;
    if (column.startsWith("metadata.")) {
      metadata[column.slice("metadata.".length)] = value;
      continue;
    }
    switch (column) {
      case "scale": {
        const scale = Number(value);
        if (!Number.isFinite(scale) || scale < 1 || scale > 4)
          return { error: `scale: "${value}" is not a number from 1 to 4` };
        body.scale = scale;
        continue;
      }
      case "format":
        if (!FORMATS.has(value.toLowerCase())) return { error: `format: "${value}" is not png, jpg or webp` };
        body.format = value.toLowerCase() as NonNullable<BatchRow["format"]>;
        continue;
      case "quality":
        body.quality = Number(value);
        continue;
      case "frame":
        body.frame = value;
        continue;
      case "webhook_url":
        body.webhook_url = value;
        continue;
      case "tags":
        body.tags = value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean);
        continue;
    }
    const type = slots.get(column);
    if (type === "color") {
      if (!HEX.test(value)) return { error: `${column}: "${value}" is not a colour in the form #RRGGBB` };
      modifications.push({ name: column, color: value });
    } else if (type === "image") modifications.push({ name: column, image_url: value });
    else if (type === "number") {
      // A CSV cell is text: a number slot's is a decimal number, a list slot's its items as JSON.
      const number = Number(value);
      if (!Number.isFinite(number)) return { error: `${column}: "${value}" is not a number` };
      modifications.push({ name: column, number });
    } else if (type === "date") modifications.push({ name: column, date: value });
    else if (type === "list") {
      const items = parsedJson(value);
      if (!Array.isArray(items)) return { error: `${column}: not a JSON array of items` };
      modifications.push({ name: column, items });
    } else modifications.push({ name: column, text: value });
  }
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  return { body };
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function readResults(path: string): Promise<Map<number, ResultRecord>> {
  const out = new Map<number, ResultRecord>();
  if (!existsSync(path)) return out;
  const records = parseCsv(await readFile(path, "utf8"), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  for (const r of records) {
    const row = Number(r.row);
    if (!Number.isInteger(row)) continue;
    out.set(row, {
      row,
      id: r.id ?? "",
      status: (r.status ?? "") as ResultRecord["status"],
      asset_url: r.asset_url ?? "",
      error: r.error ?? "",
      file: r.file ?? "",
      content: r.content ?? "",
      key: r.key ?? "",
    });
  }
  return out;
}

/** Written to a temporary file and renamed: an interrupted run never leaves half a results file. */
async function writeResults(path: string, records: Iterable<ResultRecord>): Promise<void> {
  const sorted = [...records].sort((a, b) => a.row - b.row);
  const lines = [
    RESULT_COLUMNS.join(","),
    ...sorted.map((r) => RESULT_COLUMNS.map((c) => csvField(r[c])).join(",")),
  ];
  await writeFile(`${path}.tmp`, `${lines.join("\n")}\n`);
  await rename(`${path}.tmp`, path);
}

function safeName(value: string): string {
  return (
    value
      .replace(/[^\p{L}\p{N}._-]+/gu, "-")
      .replace(/^[-.]+|-+$/g, "")
      .slice(0, 120) || "row"
  );
}

function hash(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);
}

/**
 * A row's idempotency key, from what it renders: the template (id and the published version the run
 * starts with) and the row's request, as canonical JSON, SHA-256. Not its line: a row that moves keeps
 * its key. `occurrence` numbers rows with the same content (2, 3, …) so that each is its own render.
 * Sent again within the server's 24 hours, with the results file lost or not, in any chunk, the row
 * is answered with its first render and not charged again.
 */
export function rowKey(
  template: Pick<Template, "id" | "published_version">,
  body: BatchRow,
  occurrence: number,
) {
  const content = canonicalJson({ template: template.id, version: template.published_version, row: body });
  const key = `pictor-batch-${createHash("sha256").update(content).digest("hex")}`;
  return occurrence > 1 ? `${key}-${occurrence}` : key;
}

/** The key of a row sent again after its render failed: a new render, the same for every rerun. */
function retryKey(key: string): string {
  return `pictor-batch-retry-${hash(key)}`;
}

const requestOverhead = Buffer.byteLength(JSON.stringify({ renders: [] }));

/**
 * Cuts rows into requests of at most `chunk` rows whose bodies (as the client serializes them) are at
 * most `limit` bytes, in order. A row over the limit on its own goes to `oversized`: no request can
 * carry it.
 */
export function planChunks<T>(
  items: readonly T[],
  bodyOf: (item: T) => BatchRow,
  chunk: number,
  limit: number,
): { chunks: T[][]; oversized: { item: T; bytes: number }[] } {
  const chunks: T[][] = [];
  const oversized: { item: T; bytes: number }[] = [];
  let current: T[] = [];
  let bytes = requestOverhead;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(bodyOf(item)));
    if (requestOverhead + size > limit) {
      oversized.push({ item, bytes: requestOverhead + size });
      continue;
    }
    // A comma between rows.
    if (current.length >= chunk || bytes + 1 + size > limit) {
      if (current.length > 0) chunks.push(current);
      current = [];
      bytes = requestOverhead;
    }
    bytes += (current.length > 0 ? 1 : 0) + size;
    current.push(item);
  }
  if (current.length > 0) chunks.push(current);
  return { chunks, oversized };
}

/**
 * Sends each chunk; a chunk the server answers `413 payload_too_large` (a server whose body limit is
 * lower than this one's figure) is sent again as two halves, down to single rows: a row the server
 * still refuses alone is `tooLarge`, and the run goes on.
 */
export async function sendChunks<T>(
  chunks: T[][],
  send: (rows: T[]) => Promise<BatchResponse>,
  answered: (rows: T[], response: BatchResponse) => Promise<void>,
  tooLarge: (item: T, message: string) => Promise<void>,
): Promise<void> {
  const queue = [...chunks];
  for (let rows = queue.shift(); rows !== undefined; rows = queue.shift()) {
    let response: BatchResponse;
    try {
      response = await send(rows);
    } catch (error) {
      if (!(error instanceof PictorError) || error.status !== 413) throw error;
      if (rows.length === 1) {
        await tooLarge(rows[0] as T, error.message);
      } else {
        const half = Math.ceil(rows.length / 2);
        queue.unshift(rows.slice(0, half), rows.slice(half));
      }
      continue;
    }
    await answered(rows, response);
  }
}

async function batchCommand(fileArg: string, flags: BatchFlags): Promise<number> {
  const apiKey = flags.key ?? process.env.PICTOR_API_KEY;
  if (!apiKey) throw new UsageError("an API key is needed: --key sk_live_… or PICTOR_API_KEY");
  const file = resolve(fileArg);
  const outDir = resolve(
    flags.output ?? join(resolve(file, ".."), `${basename(file, extname(file))}-renders`),
  );
  const resultsPath = resolve(flags.results ?? join(outDir, "results.csv"));
  const rows = await readRows(file);
  if (rows.length === 0) throw new UsageError(`${fileArg}: no rows`);
  if (flags.nameColumn && !rows.some((r) => flags.nameColumn && flags.nameColumn in r.values)) {
    throw new UsageError(`--name-column ${flags.nameColumn}: no such column in ${fileArg}`);
  }
  const pictor = new Pictor({ apiKey, baseUrl: flags.url });

  let schema: TemplateSchema;
  try {
    schema = await pictor.templates.schema(flags.template);
  } catch (error) {
    // A template that is not there (or a key that is wrong) is the user's to fix: exit 2.
    if (error instanceof PictorError && (error.status === 404 || error.status === 401)) {
      throw new UsageError(`template ${flags.template}: ${error.message}`);
    }
    throw error;
  }
  // The published version is part of each row's key: after a new version is published, rows render anew.
  const template = await pictor.templates.get(flags.template);
  const slots = new Map(schema.slots.map((s) => [s.name, s.type as string]));
  const columns = new Set(rows.flatMap((r) => Object.keys(r.values)));
  const unknown = [...columns].filter(
    (c) => c !== flags.nameColumn && !OPTION_COLUMNS.has(c) && !c.startsWith("metadata.") && !slots.has(c),
  );
  if (unknown.length > 0) {
    throw new UsageError(
      `column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: not a slot of ${flags.template} (slots: ${[...slots.keys()].join(", ")}) nor scale, format, quality, frame, webhook_url, tags, metadata.*`,
    );
  }
  if (flags.preflight) return preflightRows(pictor, rows, flags, slots);
  await mkdir(outDir, { recursive: true });

  const previous = await readResults(resultsPath);
  const results = new Map<number, ResultRecord>();
  const toSend: { row: InputRow; body: BatchRow }[] = [];
  const occurrences = new Map<string, number>();
  const toWait: ResultRecord[] = [];
  const usedNames = new Set<string>();
  const fileFor = (row: InputRow, format: string | undefined) => {
    const stem = flags.nameColumn ? safeName(row.values[flags.nameColumn] ?? "") : `row-${row.line}`;
    let name = `${stem}${EXTENSION[format ?? "png"] ?? ".png"}`;
    for (let i = 2; usedNames.has(name); i++) name = `${stem}-${i}${EXTENSION[format ?? "png"] ?? ".png"}`;
    usedNames.add(name);
    return name;
  };

  for (const row of rows) {
    const built = rowBody(row, flags.template, slots, flags.nameColumn);
    const before = previous.get(row.line);
    if ("error" in built) {
      results.set(row.line, {
        row: row.line,
        id: "",
        status: "refused",
        asset_url: "",
        error: built.error,
        file: "",
        content: "",
        key: "",
      });
      continue;
    }
    const name = fileFor(row, built.body.format);
    // Each row carries its own idempotency key, from its content: a row the server accepted before
    // (within its 24 hours) is answered with that render and not charged again, whatever chunk it
    // comes in and whether or not the results file survived. An unchanged row keeps the key it was
    // last sent with; one whose render failed gets a new key chained on that one, so that it is
    // rendered anew (a refused row's key was never kept: it is sent again with the same one).
    const content = hash(flags.template, String(row.line), JSON.stringify(built.body));
    const request = JSON.stringify(built.body);
    const occurrence = (occurrences.get(request) ?? 0) + 1;
    occurrences.set(request, occurrence);
    const same = before !== undefined && before.content === content;
    const last = same && before.key ? before.key : rowKey(template, built.body, occurrence);
    const key = same && before.status === "failed" ? retryKey(last) : last;
    const refusal = before?.error.split(":")[0] ?? "";
    if (same && before.status === "completed" && existsSync(join(outDir, before.file))) {
      results.set(row.line, before);
    } else if (same && before.status === "refused" && PERMANENT_REFUSALS.has(refusal)) {
      results.set(row.line, before);
    } else if (same && before.id && before.status !== "failed") {
      const waiting = { ...before, file: name };
      results.set(row.line, waiting);
      toWait.push(waiting);
    } else {
      toSend.push({ row, body: { ...built.body, idempotency_key: key } });
      results.set(row.line, {
        row: row.line,
        id: "",
        status: "queued",
        asset_url: "",
        error: "",
        file: name,
        content,
        key,
      });
    }
  }

  const total = rows.length;
  const tally = { done: 0, failed: 0, credits: 0, replayed: 0 };
  /** Rows this run was charged for: their refunds come off the run's credits. */
  const charged = new Set<number>();
  for (const r of results.values()) {
    if (r.status === "completed") tally.done++;
    if (r.status === "refused") tally.failed++;
  }
  const skipped = tally.done;
  const bar =
    flags.progress && process.stderr.isTTY
      ? new SingleBar({
          format: "{bar} {value}/{total} rows | done {done} | failed {failed} | credits {credits}",
          stream: process.stderr,
          hideCursor: true,
        })
      : null;
  const finished = () => tally.done + tally.failed;
  bar?.start(total, finished(), tally);
  const tick = () => bar?.update(finished(), tally);

  // Send: requests of at most --chunk rows and the API's body limit; a row over the limit on its own is
  // refused here, and the others go on. Each request gets its own Idempotency-Key from the client (for
  // its retries); what keeps a row from being charged twice across requests and runs is its own key.
  const batches: { id: string; lines: number[] }[] = [];
  const refuse = async (item: (typeof toSend)[number], message: string) => {
    const record = results.get(item.row.line) as ResultRecord;
    record.status = "refused";
    record.error = `payload_too_large: ${message}`;
    tally.failed++;
    await writeResults(resultsPath, results.values());
    tick();
  };
  const { chunks, oversized } = planChunks(toSend, (c) => c.body, flags.chunk, BATCH_BODY_LIMIT);
  for (const { item, bytes } of oversized) {
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    await refuse(
      item,
      `this row alone is a ${mib(bytes)} MiB request; a batch request holds at most ${mib(BATCH_BODY_LIMIT)} MiB`,
    );
  }
  await sendChunks(
    chunks,
    (chunk) => pictor.renders.batch({ renders: chunk.map((c) => c.body) }),
    async (chunk, response) => {
      const lines: number[] = [];
      for (const rowResult of response.renders) {
        const sent = chunk[rowResult.index];
        if (!sent) continue;
        const record = results.get(sent.row.line) as ResultRecord;
        if (!("id" in rowResult)) {
          record.status = "refused";
          record.error = `${rowResult.error.code}: ${rowResult.error.message}`;
          tally.failed++;
        } else {
          record.id = rowResult.id;
          record.status = rowResult.status;
          lines.push(sent.row.line);
          if (rowResult.replayed) {
            tally.replayed++;
          } else {
            tally.credits += rowResult.credits_charged;
            charged.add(sent.row.line);
          }
        }
      }
      batches.push({ id: response.batch_id, lines });
      await writeResults(resultsPath, results.values());
      tick();
    },
    refuse,
  );

  // Wait and download: poll each batch (one request for up to 1,000 rows), fetch completed images.
  const downloads: Promise<void>[] = [];
  const limit = limiter(16);
  const settle = async (
    record: ResultRecord,
    job: Pick<RenderJob, "status" | "asset_url" | "error" | "credits_refunded">,
  ) => {
    if (job.status === "completed" && job.asset_url) {
      record.status = "completed";
      record.asset_url = job.asset_url;
      downloads.push(
        limit(() => download(job.asset_url as string, join(outDir, record.file))).then(
          () => {
            tally.done++;
            tick();
          },
          (error: Error) => {
            record.status = "failed";
            record.error = `download: ${error.message}`;
            tally.failed++;
            tick();
          },
        ),
      );
    } else if (job.status === "failed") {
      record.status = "failed";
      record.error = job.error ? `${job.error.code}: ${job.error.message}` : "failed";
      if (charged.has(record.row)) tally.credits -= job.credits_refunded;
      tally.failed++;
      tick();
    }
  };
  const open = new Map(batches.map((b) => [b.id, new Set(b.lines)]));
  // Render id → the rows answered with it (one, unless rows were given one key: then each settles).
  const linesOf = new Map<string, number[]>();
  for (const r of results.values()) if (r.id) linesOf.set(r.id, [...(linesOf.get(r.id) ?? []), r.row]);
  let interval = 200;
  while ([...open.values()].some((s) => s.size > 0)) {
    for (const [batchId, lines] of open) {
      if (lines.size === 0) continue;
      const batch = await pictor.batches.get(batchId);
      for (const row of batch.renders) {
        if (!("id" in row) || (row.status !== "completed" && row.status !== "failed")) continue;
        for (const line of linesOf.get(row.id) ?? []) {
          if (!lines.has(line)) continue;
          lines.delete(line);
          await settle(results.get(line) as ResultRecord, row);
        }
      }
    }
    if ([...open.values()].some((s) => s.size > 0)) {
      // One request per open chunk per poll, so polling often costs little and ends the run sooner.
      await new Promise((r) => setTimeout(r, interval));
      interval = Math.min(500, interval * 1.5);
    }
  }
  // Renders accepted by an earlier, interrupted run: wait for each.
  for (const record of toWait) {
    const job = await pictor.renders.waitFor(record.id, { timeout: 600_000 }).catch((error: unknown) => {
      if (error instanceof PictorError && error.renderId) return pictor.renders.get(error.renderId);
      throw error;
    });
    await settle(record, job);
  }
  await Promise.all(downloads);
  await writeResults(resultsPath, results.values());
  bar?.update(finished(), tally);
  bar?.stop();

  const bad = [...results.values()].filter((r) => r.status !== "completed");
  for (const r of bad) process.stderr.write(`${fileArg}:${r.row}: ${r.status}: ${r.error}\n`);
  const sent = toSend.length - oversized.length;
  const replayed =
    tally.replayed > 0
      ? ` (${tally.replayed} rows answered with renders accepted earlier, not charged again)`
      : "";
  process.stdout.write(
    `${tally.done} of ${total} rows rendered (${skipped} already done, ${sent} sent), ${bad.length} failed, ${tally.credits} credits${replayed}; images in ${outDir}, results in ${resultsPath}\n`,
  );
  return bad.length > 0 ? EXIT_FAILED : 0;
}

/** Downloads refused for the rate (429) are waited out this many times before the file counts as failed. */
const MAX_RATE_LIMITED_WAITS = 60;

async function download(url: string, path: string): Promise<void> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  for (let attempt = 0, waits = 0; ; ) {
    try {
      const response = await fetch(url);
      // File downloads are rate-limited per address and per account: wait as told, then go on.
      if (response.status === 429 && waits < MAX_RATE_LIMITED_WAITS) {
        waits++;
        await response.body?.cancel();
        const seconds = Number(response.headers.get("retry-after"));
        await sleep(Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 1000);
        continue;
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await writeFile(path, new Uint8Array(await response.arrayBuffer()));
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(250 * 2 ** attempt);
      attempt++;
    }
  }
}

/** At most `n` of the given tasks at a time. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/**
 * `--preflight`: every row checked and drawn by the server's preflight (nothing charged, stored or
 * rendered), one line each on stdout, then a summary. Exit 0 when every row would render, else 1.
 */
async function preflightRows(
  pictor: Pictor,
  rows: InputRow[],
  flags: BatchFlags,
  slots: Map<string, string>,
): Promise<number> {
  const lines: { line: number; text: string; valid: boolean; cost: number }[] = [];
  const toCheck: { row: InputRow; body: BatchRow }[] = [];
  for (const row of rows) {
    const built = rowBody(row, flags.template, slots, flags.nameColumn);
    if ("error" in built) lines.push({ line: row.line, text: built.error, valid: false, cost: 0 });
    else toCheck.push({ row, body: built.body });
  }
  const { chunks, oversized } = planChunks(toCheck, (c) => c.body, flags.chunk, BATCH_BODY_LIMIT);
  for (const { item } of oversized) {
    lines.push({
      line: item.row.line,
      text: "payload_too_large: this row alone is over a batch request's size",
      valid: false,
      cost: 0,
    });
  }
  for (const chunk of chunks) {
    const report = await pictor.renders.preflightBatch({ renders: chunk.map((c) => c.body) });
    for (const row of report.renders) {
      const sent = chunk[row.index];
      if (!sent) continue;
      if (!row.valid || row.error) {
        lines.push({
          line: sent.row.line,
          text: `${row.error?.code}: ${row.error?.message}`,
          valid: false,
          cost: 0,
        });
        continue;
      }
      const findings = row.layers.flatMap((layer) =>
        layer.findings.map((f) => `${layer.layer}: ${findingText(f)}`),
      );
      const defaults =
        row.slots_defaulted.length > 0 ? [`defaults used: ${row.slots_defaulted.join(", ")}`] : [];
      const cost = row.cost ?? 0;
      lines.push({
        line: sent.row.line,
        text: [`ok, ${cost} credit${cost === 1 ? "" : "s"}`, ...findings, ...defaults].join("; "),
        valid: true,
        cost,
      });
    }
  }
  lines.sort((a, b) => a.line - b.line);
  for (const l of lines) process.stdout.write(`row ${l.line}: ${l.text}\n`);
  const valid = lines.filter((l) => l.valid);
  const credits = valid.reduce((sum, l) => sum + l.cost, 0);
  process.stdout.write(
    `preflight: ${valid.length} of ${lines.length} rows would render for ${credits} credits; ${lines.length - valid.length} would be refused. Nothing was rendered or charged.\n`,
  );
  return valid.length === lines.length ? 0 : EXIT_FAILED;
}

function findingText(f: {
  code: string;
  from_px?: number;
  to_px?: number;
  lines?: number;
  family?: string;
  characters?: string[];
  factor?: number;
  weight?: number;
  style?: string;
  face_weight?: number;
  face_style?: string;
  synthesized?: string[];
}): string {
  switch (f.code) {
    case "text_shrunk":
      return `text shrunk from ${f.from_px} px to ${f.to_px} px`;
    case "text_truncated":
      return `text cut after ${f.lines} line${f.lines === 1 ? "" : "s"}`;
    case "glyph_fallback":
      return `${f.family} lacks ${(f.characters ?? []).join(" ")} (fallback fonts drew them)`;
    case "font_missing":
      return `font ${f.family} is not in the font set (fallback fonts drew the text)`;
    case "font_synthesized":
      return `font ${f.family} has no ${f.weight} ${f.style} face (its ${f.face_weight} ${f.face_style} face, ${(f.synthesized ?? []).join(" and ")} synthesized)`;
    case "image_upscaled":
      return `image enlarged ${f.factor ?? "more than 1.5"}x`;
    default:
      return f.code;
  }
}
