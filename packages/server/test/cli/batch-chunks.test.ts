import { type BatchResponse, type BatchRow, PictorError } from "@pictor/client";
import { describe, expect, it } from "vitest";
import { planChunks, rowKey, sendChunks } from "../../src/cli/batch.ts";

// Issue 33 item 9: how `pictor batch` cuts its rows into requests under the body limit, and what it
// does when a server answers 413 anyway (a server whose limit is lower than the CLI's figure).

const row = (text: string): BatchRow => ({ template: "t", modifications: [{ name: "title", text }] });
const bytes = (rows: BatchRow[]) => Buffer.byteLength(JSON.stringify({ renders: rows }));

describe("planChunks", () => {
  it("keeps each request within the row count and the byte limit, in order", () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(`${i} `.padEnd(1000, "é")));
    const limit = 10_000;
    const { chunks, oversized } = planChunks(rows, (r) => r, 7, limit);
    expect(oversized).toEqual([]);
    expect(chunks.flat()).toEqual(rows);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(7);
      expect(bytes(chunk)).toBeLessThanOrEqual(limit);
    }
    // As full as the limit allows: a chunk plus the next row would be over it.
    for (const [i, chunk] of chunks.slice(0, -1).entries()) {
      const next = chunks[i + 1]?.[0] as BatchRow;
      expect(bytes([...chunk, next])).toBeGreaterThan(limit);
    }
    // The row count still bounds rows that are small.
    const small = planChunks(
      Array.from({ length: 20 }, (_, i) => row(String(i))),
      (r) => r,
      7,
      limit,
    );
    expect(small.chunks.map((c) => c.length)).toEqual([7, 7, 6]);
  });

  it("sets aside a row that is over the limit on its own, with its size", () => {
    const big = row("x".repeat(2000));
    const { chunks, oversized } = planChunks([row("a"), big, row("b")], (r) => r, 10, 1000);
    expect(chunks).toEqual([[row("a"), row("b")]]);
    expect(oversized).toEqual([{ item: big, bytes: bytes([big]) }]);
  });
});

describe("sendChunks", () => {
  /** A server that answers 413 above `limit` bytes and otherwise accepts every row. */
  function server(limit: number) {
    const requests: number[] = [];
    const send = async (rows: BatchRow[]): Promise<BatchResponse> => {
      requests.push(rows.length);
      if (bytes(rows) > limit) {
        throw new PictorError({ status: 413, code: "payload_too_large", message: "Body over the limit." });
      }
      return {
        batch_id: `bat_${requests.length}`,
        renders: rows.map((_, index) => ({ index, error: { code: "x", message: "" } })),
      } as BatchResponse;
    };
    return { send, requests };
  }

  it("halves a chunk the server refuses with 413 until each part fits; a row too large alone fails alone", async () => {
    const rows = Array.from({ length: 8 }, (_, i) => row(`${i}`.padEnd(100, "-")));
    const huge = row("h".repeat(1000));
    rows.splice(5, 0, huge);
    const { send, requests } = server(400);
    const answered: BatchRow[][] = [];
    const tooLarge: [BatchRow, string][] = [];
    await sendChunks(
      [rows],
      send,
      async (chunk) => {
        answered.push(chunk);
      },
      async (item, message) => {
        tooLarge.push([item, message]);
      },
    );
    expect(tooLarge).toEqual([[huge, "Body over the limit."]]);
    expect(answered.flat()).toEqual(rows.filter((r) => r !== huge));
    for (const chunk of answered) expect(bytes(chunk)).toBeLessThanOrEqual(400);
    // 9 rows: refused, then halves of 5 and 4, and so on down to what fits.
    expect(requests[0]).toBe(9);
    expect(requests.slice(1, 3)).toEqual([5, 3]);
  });

  it("any other failure ends the run as before", async () => {
    const failing = async (): Promise<BatchResponse> => {
      throw new PictorError({ status: 402, code: "insufficient_credits", message: "no" });
    };
    await expect(
      sendChunks(
        [[row("a")]],
        failing,
        async () => {},
        async () => {},
      ),
    ).rejects.toMatchObject({ code: "insufficient_credits" });
  });
});

describe("rowKey", () => {
  const template = { id: "tpl_1", published_version: 3 };
  it("is the same for the same content, whatever the order of its fields; another version, content or occurrence is another key", () => {
    const a = rowKey(template, { template: "t", modifications: [{ name: "title", text: "A" }], scale: 2 }, 1);
    const reordered = rowKey(
      template,
      { scale: 2, modifications: [{ text: "A", name: "title" }], template: "t" },
      1,
    );
    expect(a).toBe(reordered);
    expect(a).toMatch(/^pictor-batch-[0-9a-f]{64}$/);
    expect(rowKey({ ...template, published_version: 4 }, { template: "t", modifications: [] }, 1)).not.toBe(
      rowKey(template, { template: "t", modifications: [] }, 1),
    );
    expect(
      rowKey(template, { template: "t", modifications: [{ name: "title", text: "B" }], scale: 2 }, 1),
    ).not.toBe(a);
    const second = rowKey(
      template,
      { template: "t", modifications: [{ name: "title", text: "A" }], scale: 2 },
      2,
    );
    expect(second).toBe(`${a}-2`);
  });
});
