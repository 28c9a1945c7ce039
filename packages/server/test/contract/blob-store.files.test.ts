import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileBlobStore } from "../../src/adapters/files/blob-store.ts";
import { blobStoreContract } from "./blob-store.contract.ts";

for (const synchronousWrites of [false, true]) {
  blobStoreContract(
    synchronousWrites ? "files (synchronous writes, as in render worker threads)" : "files",
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "pictor-blobs-"));
      return {
        store: createFileBlobStore(dir, { synchronousWrites }),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  );
}
