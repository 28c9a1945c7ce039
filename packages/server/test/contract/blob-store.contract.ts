import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlobStore } from "../../src/ports/blob-store.ts";

export interface BlobStoreFixture {
  store: BlobStore;
  cleanup(): Promise<void>;
}

/**
 * What every BlobStore adapter must do (files, S3). One store per suite; every test writes under its
 * own random prefix so tests never see each other's keys.
 */
export function blobStoreContract(adapter: string, setup: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${adapter}`, () => {
    let fx: BlobStoreFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());
    const unique = (name: string) => `contract/${randomBytes(6).toString("hex")}/${name}`;

    it("returns exactly the bytes put, all 256 byte values included", async () => {
      const key = unique("all-bytes.png");
      const bytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
      await fx.store.put(key, bytes);
      const got = await fx.store.get(key);
      expect(got).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(got as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    });

    it("returns null for a key never put", async () => {
      expect(await fx.store.get(unique("never-put.png"))).toBeNull();
    });

    it("accepts a second put of identical bytes (a retried job) and still returns them", async () => {
      const key = unique("retried.webp");
      const bytes = new Uint8Array(randomBytes(4096));
      await fx.store.put(key, bytes);
      await fx.store.put(key, bytes);
      expect(Buffer.from((await fx.store.get(key)) as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    });

    it("stores an empty object", async () => {
      const key = unique("empty.json");
      await fx.store.put(key, new Uint8Array(0));
      expect(await fx.store.get(key)).toEqual(new Uint8Array(0));
    });

    it("round-trips a 5 MiB object intact", async () => {
      const key = unique("large.png");
      const bytes = new Uint8Array(randomBytes(5 * 1024 * 1024));
      await fx.store.put(key, bytes);
      const got = await fx.store.get(key);
      expect(got?.byteLength).toBe(bytes.byteLength);
      expect(Buffer.from(got as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    });

    it("treats keys with slashes as distinct names, not as directories holding each other", async () => {
      const base = unique("renders/2026/11");
      await fx.store.put(`${base}/rnd_a.png`, Uint8Array.of(1));
      await fx.store.put(`${base}/rnd_b.png`, Uint8Array.of(2));
      await fx.store.put(`${base}/deeper/rnd_a.png`, Uint8Array.of(3));
      expect(await fx.store.get(`${base}/rnd_a.png`)).toEqual(Uint8Array.of(1));
      expect(await fx.store.get(`${base}/rnd_b.png`)).toEqual(Uint8Array.of(2));
      expect(await fx.store.get(`${base}/deeper/rnd_a.png`)).toEqual(Uint8Array.of(3));
    });

    it("returns null for a key that only exists as a prefix of other keys", async () => {
      const base = unique("prefix");
      await fx.store.put(`${base}/inner/rnd_a.png`, Uint8Array.of(1));
      expect(await fx.store.get(`${base}/inner`)).toBeNull();
      expect(await fx.store.get(base)).toBeNull();
    });

    it("deletes a key, leaving its neighbours; deleting an absent key or a bare prefix is no error", async () => {
      const base = unique("deleted");
      await fx.store.put(`${base}/a.png`, Uint8Array.of(1));
      await fx.store.put(`${base}/b.png`, Uint8Array.of(2));
      await fx.store.put(`${base}/inner/c.png`, Uint8Array.of(3));
      await fx.store.delete(`${base}/a.png`);
      expect(await fx.store.get(`${base}/a.png`)).toBeNull();
      expect(await fx.store.get(`${base}/b.png`)).toEqual(Uint8Array.of(2));
      await fx.store.delete(`${base}/a.png`);
      await fx.store.delete(`${base}/inner`);
      expect(await fx.store.get(`${base}/inner/c.png`)).toEqual(Uint8Array.of(3));
      // A key deleted and put again holds the new bytes.
      await fx.store.put(`${base}/a.png`, Uint8Array.of(4));
      expect(await fx.store.get(`${base}/a.png`)).toEqual(Uint8Array.of(4));
    });

    it("opens a blob as a stream of its bytes or of one range, with its whole size; null when absent", async () => {
      const key = unique("streamed.png");
      const bytes = new Uint8Array(randomBytes(300 * 1024));
      await fx.store.put(key, bytes);
      const read = async (stream: NodeJS.ReadableStream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
        return Buffer.concat(chunks);
      };
      const whole = await fx.store.open(key);
      expect(whole?.size).toBe(bytes.byteLength);
      expect((await read(whole?.stream as NodeJS.ReadableStream)).equals(Buffer.from(bytes))).toBe(true);
      const part = await fx.store.open(key, { start: 1000, end: 1999 });
      expect(part?.size).toBe(bytes.byteLength);
      expect(
        (await read(part?.stream as NodeJS.ReadableStream)).equals(Buffer.from(bytes.subarray(1000, 2000))),
      ).toBe(true);
      const last = await fx.store.open(key, { start: bytes.byteLength - 1, end: bytes.byteLength - 1 });
      expect([...(await read(last?.stream as NodeJS.ReadableStream))]).toEqual([bytes[bytes.byteLength - 1]]);
      // A stream given up half-way (a client gone) is destroyed without reading the rest.
      const abandoned = await fx.store.open(key);
      abandoned?.stream.destroy();
      expect(await fx.store.open(unique("never-put.png"))).toBeNull();
      const prefix = unique("prefix-only");
      await fx.store.put(`${prefix}/inner.png`, Uint8Array.of(1));
      expect(await fx.store.open(prefix)).toBeNull();
    });

    it("keeps every one of many concurrent puts, including racing puts of one key", async () => {
      const prefix = unique("concurrent");
      const distinct = Array.from({ length: 16 }, (_, i) => ({
        key: `${prefix}/k${i}.png`,
        bytes: new Uint8Array(randomBytes(1000 + i)),
      }));
      const shared = { key: `${prefix}/shared.png`, bytes: new Uint8Array(randomBytes(64 * 1024)) };
      await Promise.all([
        ...distinct.map((b) => fx.store.put(b.key, b.bytes)),
        ...Array.from({ length: 6 }, () => fx.store.put(shared.key, shared.bytes)),
      ]);
      const got = await Promise.all([...distinct, shared].map((b) => fx.store.get(b.key)));
      [...distinct, shared].forEach((b, i) => {
        expect(Buffer.from(got[i] as Uint8Array).equals(Buffer.from(b.bytes)), b.key).toBe(true);
      });
    });
  });
}
