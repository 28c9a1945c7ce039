import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BuildMiddleware, MetadataBearer } from "@smithy/types";
import type { BlobRead, BlobStore, ByteRange } from "../../ports/blob-store.ts";
import { createSignedPut, type SignedPutObject } from "./signed-put.ts";

export interface S3BlobStoreConfig {
  /** e.g. `https://s3.eu-central-1.amazonaws.com`, or a MinIO / Swift s3api / R2 URL. Omit for AWS. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * Bucket in the path (`/bucket/key`) instead of the host name. Needed by most S3-compatible stores
   * (Swift s3api, MinIO without DNS); AWS accepts both. Default: true when an endpoint is given.
   */
  forcePathStyle?: boolean;
  /** Prepended to every key, so several deployments can share one bucket. */
  prefix?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
  json: "application/json",
  pdf: "application/pdf",
};

// Keys derive from the job or the content, so the bytes under a key never change: a CDN or browser
// may keep them for a year without revalidating.
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The SHA-256 (hex) of a PUT's body, by the body itself (the SDK copies a command's input, but passes
 * the body through by reference), when the caller has it already.
 */
const payloadHashes = new WeakMap<object, string>();

/**
 * SigV4 signs the payload's SHA-256, which the signer takes from this header when present instead of
 * hashing the body again (a render output's hash is computed anyway, for its asset).
 */
const knownPayloadHash: BuildMiddleware<object, MetadataBearer> = (next) => (args) => {
  const request = args.request as { headers?: Record<string, string>; body?: unknown };
  const sha256 =
    typeof request.body === "object" && request.body ? payloadHashes.get(request.body) : undefined;
  if (sha256 && request.headers) request.headers["x-amz-content-sha256"] = sha256;
  return next(args);
};

/** The object store answered that the configured bucket does not exist. */
export class MissingBucketError extends Error {
  constructor(bucket: string, options?: ErrorOptions) {
    super(`bucket ${bucket} does not exist (HTTP 404)`, options);
    this.name = "MissingBucketError";
  }
}

/** BlobStore on any S3-compatible object store (AWS SDK v3), with presigned GET URLs for `output_url`. */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  /** Streamed reads (open), on sockets of their own: see the constructor. */
  readonly #reads: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #signedPut: (object: SignedPutObject) => Promise<boolean>;

  constructor(config: S3BlobStoreConfig) {
    this.#bucket = config.bucket;
    this.#prefix = config.prefix ?? "";
    const clientConfig: S3ClientConfig = {
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      region: config.region,
      forcePathStyle: config.forcePathStyle ?? config.endpoint !== undefined,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Since SDK 3.729 every PUT carries CRC32 checksum headers by default; S3-compatible stores that
      // predate them (Swift 2.30 s3api, older MinIO/Ceph) reject or ignore them. Checksums only where
      // an operation requires one keeps the adapter portable; TLS already protects the bytes in flight.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // The middleware stack is resolved once per command type instead of on every request; the
      // payload hash therefore rides in the client's stack below (a command's own would be ignored).
      cacheMiddleware: true,
    };
    this.#client = new S3Client(clientConfig);
    // A streamed read holds its socket until the file route's client has read the object (or the route
    // gives up on it): on the writes' 50 sockets, slow downloads would hold up every render's output.
    this.#reads = new S3Client({
      ...clientConfig,
      requestHandler: { httpAgent: { maxSockets: 256 }, httpsAgent: { maxSockets: 256 } },
    });
    this.#reads.middlewareStack.remove("loggerMiddleware");
    this.#client.middlewareStack.add(knownPayloadHash, { step: "build", name: "pictorKnownPayloadHash" });
    // Pictor gives the SDK no logger, yet its logging middleware builds a copy of every request's input
    // and response with the sensitive fields masked, to hand to the no-op logger: skipped.
    this.#client.middlewareStack.remove("loggerMiddleware");
    this.#signedPut = createSignedPut(this.#client, this.#bucket);
  }

  async put(key: string, bytes: Uint8Array, known: { sha256?: string } = {}): Promise<void> {
    const sha256 = known.sha256 ?? createHash("sha256").update(bytes).digest("hex");
    const object = { key: this.#key(key), bytes, sha256, contentType: contentTypeOf(key) };
    if (await this.#signedPut({ ...object, cacheControl: IMMUTABLE })) return;
    // Refused, or the request failed: through the SDK, with its retries and errors (signed-put.ts).
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: object.key,
      Body: bytes,
      ContentLength: bytes.byteLength,
      ContentType: object.contentType,
      CacheControl: IMMUTABLE,
    });
    payloadHashes.set(bytes, sha256);
    try {
      await this.#client.send(command);
    } finally {
      // For this put only.
      payloadHashes.delete(bytes);
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const out = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }),
      );
      if (!out.Body) throw new Error(`S3 returned no body for ${key}`);
      return await out.Body.transformToByteArray();
    } catch (e) {
      if (e instanceof NoSuchKey || (e as { name?: string }).name === "NoSuchKey") return null;
      throw e;
    }
  }

  async open(key: string, range?: ByteRange): Promise<BlobRead | null> {
    try {
      const out = await this.#reads.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: this.#key(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!out.Body) throw new Error(`S3 returned no body for ${key}`);
      // In Node the body is the HTTP response itself: read as the consumer reads (TCP flow control
      // holds the store back), never buffered whole.
      const stream = out.Body as unknown as Readable;
      if (!(stream instanceof Readable))
        throw new Error(`S3 returned a body that is not a Node stream for ${key}`);
      // `bytes 0-9/100` for a range (the whole size after the slash), else the whole length.
      const total = /\/(\d+)$/.exec(out.ContentRange ?? "")?.[1];
      const size = total !== undefined ? Number(total) : (out.ContentLength ?? 0);
      return { stream, size };
    } catch (e) {
      if (e instanceof NoSuchKey || (e as { name?: string }).name === "NoSuchKey") return null;
      throw e;
    }
  }

  /** S3 answers 204 for an absent key too, so a retried delete succeeds. */
  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  /**
   * A URL anyone can GET for `expiresInSeconds` (SigV4 query signature; S3 caps it at 7 days). The
   * store checks the signature and the expiry itself, so the API never proxies render outputs.
   * `signedAt` (default now) lets a caller with an injected clock sign at its own time.
   * `responseContentType` is signed into the URL (`response-content-type`) and overrides the stored
   * type, for keys whose extension does not tell it.
   */
  presignGet(
    key: string,
    expiresInSeconds: number,
    signedAt?: Date,
    responseContentType?: string,
  ): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(key),
      ...(responseContentType ? { ResponseContentType: responseContentType } : {}),
    });
    return getSignedUrl(this.#client, command, {
      expiresIn: expiresInSeconds,
      ...(signedAt ? { signingDate: signedAt } : {}),
    });
  }

  /**
   * Resolves when the bucket answers with these credentials; rejects with what an operator should
   * fix (a wrong secret is told apart from a store that cannot be reached). One request, no retries.
   */
  async checkBucket(timeoutMs: number): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 403) {
        throw new Error(
          `bucket ${this.#bucket} refused these credentials (HTTP 403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
          { cause: error },
        );
      }
      if (status === 404) throw new MissingBucketError(this.#bucket, { cause: error });
      const { name, message } = error as { name?: string; message?: string };
      throw new Error(`object store not reachable: ${status ? `HTTP ${status}` : message || name}`, {
        cause: error,
      });
    }
  }

  /** Closes the SDK's keep-alive sockets. */
  destroy(): void {
    this.#client.destroy();
    this.#reads.destroy();
  }

  #key(key: string): string {
    if (
      key === "" ||
      key.startsWith("/") ||
      key.split("/").some((part) => part === "" || part === "." || part === "..")
    )
      throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
    return this.#prefix + key;
  }
}

function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}
