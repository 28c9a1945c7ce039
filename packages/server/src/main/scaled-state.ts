import { mkdirSync } from "node:fs";
import { createFileBlobStore } from "../adapters/files/blob-store.ts";
import { createDirectoryStarterCatalog } from "../adapters/files/starter-catalog.ts";
import { openPostgresState } from "../adapters/postgres/state.ts";
import { MissingBucketError, S3BlobStore } from "../adapters/s3/blob-store.ts";
import { presignedOutputLinks } from "../adapters/s3/presigned-output-links.ts";
import { hmacOutputLinks } from "../http/output-links.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import { systemClock } from "../ports/clock.ts";
import type { OutputLinks } from "../ports/output-links.ts";
import type { ReadinessCheck } from "../ports/readiness.ts";
import { BackendError } from "./backend-error.ts";
import type { Backend, ServeConfig } from "./config.ts";
import { DEFAULT_EXAMPLES_DIR, dataPaths, signingSecret } from "./data-dir.ts";

/** The object store's readiness check gives up after this long (readiness times out checks later). */
const OBJECT_STORE_CHECK_MS = 1500;

export type PostgresBackend = Extract<Backend, { state: "postgres" }>;

/**
 * The scaled-out counterpart of openDataDir: every state port on PostgreSQL, blobs on S3 or a shared
 * directory, the shared link-signing key. Renders are accepted through the dispatcher (serve's
 * root builds it: adapters/postgres/dispatcher.ts), which enqueues them in the acceptance transaction.
 */
export async function openScaledState(
  config: Pick<ServeConfig, "dataDir" | "examplesDir" | "databasePoolMax" | "role">,
  backend: PostgresBackend,
) {
  if (backend.blobs.kind === "s3") await refuseMissingBucket(backend.blobs.s3);
  const state = await openPostgresState(backend.databaseUrl, {
    max: config.databasePoolMax,
    applicationName: `pictor-${config.role}`,
  });
  const secret = backend.signingSecret ?? signingSecret(dataPaths(config.dataDir).secret);
  let blobs: BlobStore;
  let outputLinks: OutputLinks;
  let closeBlobs = () => {};
  // S3: the bucket answers with these credentials; a shared directory is checked by the caller.
  let checkBlobs: ReadinessCheck | null = null;
  const blobsKind = backend.blobs;
  switch (blobsKind.kind) {
    case "s3": {
      const s3 = new S3BlobStore(blobsKind.s3);
      blobs = s3;
      // The object store serves output links (presigned); the API never proxies render outputs.
      outputLinks = presignedOutputLinks(s3);
      closeBlobs = () => s3.destroy();
      checkBlobs = { name: "object_store", check: () => s3.checkBucket(OBJECT_STORE_CHECK_MS) };
      break;
    }
    case "files":
      mkdirSync(dataPaths(config.dataDir).blobs, { recursive: true });
      blobs = createFileBlobStore(dataPaths(config.dataDir).blobs);
      outputLinks = hmacOutputLinks(secret);
      break;
    default: {
      const unknown: never = blobsKind;
      throw new Error(`unknown blob store ${JSON.stringify(unknown)}`);
    }
  }
  return {
    ...state,
    webhooks: state.outbox,
    blobs,
    starters: createDirectoryStarterCatalog(config.examplesDir ?? DEFAULT_EXAMPLES_DIR),
    clock: systemClock,
    signingSecret: secret,
    outputLinks,
    checkBlobs,
    async close() {
      closeBlobs();
      await state.close();
    },
  };
}

export type ScaledState = Awaited<ReturnType<typeof openScaledState>>;

/**
 * Before the database is migrated or written: a bucket that does not exist fails the start (a first
 * start would otherwise create its schema, then fail on the first object it writes). Wrong
 * credentials or an unreachable store do not: the process starts, not ready, and says why (readiness).
 */
async function refuseMissingBucket(config: ConstructorParameters<typeof S3BlobStore>[0]): Promise<void> {
  const s3 = new S3BlobStore(config);
  try {
    await s3.checkBucket(OBJECT_STORE_CHECK_MS);
  } catch (error) {
    if (error instanceof MissingBucketError) {
      throw new BackendError(
        `the object store answered that ${error.message}: create it, or set S3_BUCKET to the bucket Pictor should use (nothing was written to the database)`,
        { cause: error },
      );
    }
  } finally {
    s3.destroy();
  }
}
