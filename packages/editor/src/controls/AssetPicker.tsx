import { useCallback, useEffect, useRef, useState } from "react";
import { ApiFailure, api, apiBytes, type Page } from "../api/client.ts";
import { IMAGE_TYPES, uploadAsset } from "../api/upload-asset.ts";

export interface LibraryAsset {
  id: string;
  folder: string;
  name: string;
  content_type: string;
  width: number | null;
  height: number | null;
  tags: string[];
}

const THUMB = 88;

/**
 * A thumbnail prepared by the server's image pipeline (the same one renders use) and drawn from raw
 * RGBA: the editor never asks the browser to decode an image.
 */
function AssetThumb({ id }: { id: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const res = await apiBytes("/v1/editor/prepare-image", {
        src: id,
        width: THUMB,
        height: THUMB,
        fit: "cover",
        focal: { x: 0.5, y: 0.5 },
      });
      const rgba = new Uint8ClampedArray(await res.arrayBuffer());
      const ctx = canvas.current?.getContext("2d");
      if (!cancelled && ctx) {
        ctx.putImageData(new ImageData(rgba, THUMB, THUMB), 0, 0);
        canvas.current?.setAttribute("data-ready", "");
      }
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [id]);
  return <canvas ref={canvas} width={THUMB} height={THUMB} className="asset-thumb" />;
}

interface Props {
  /** Preselects a slot's folder binding: only assets inside it are accepted there. */
  folder?: string;
  onPick(assetId: string): void;
  onClose(): void;
}

/** The asset library: browse by folder and tag, upload, pick an image. */
export function AssetPicker({ folder: initialFolder, onPick, onClose }: Props) {
  const [folder, setFolder] = useState(initialFolder ?? "");
  const [tag, setTag] = useState("");
  const [assets, setAssets] = useState<LibraryAsset[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  const load = useCallback(async () => {
    setError(null);
    try {
      const page = await api<Page<LibraryAsset>>("/v1/assets/query", {
        body: {
          ...(folder.trim() ? { folder: folder.trim() } : {}),
          recursive: true,
          content_type: IMAGE_TYPES,
          ...(tag.trim() ? { tags: { all: [tag.trim()] } } : {}),
          limit: 60,
        },
      });
      setAssets(page.data);
    } catch (err) {
      setError(err instanceof ApiFailure ? `${err.code}: ${err.message}` : String(err));
      setAssets([]);
    }
  }, [folder, tag]);

  useEffect(() => {
    const timer = setTimeout(() => void load(), 250);
    return () => clearTimeout(timer);
  }, [load]);

  async function upload(file: File) {
    setUploading(true);
    setError(null);
    try {
      const body = await uploadAsset(file, {
        folder: folder.trim() || undefined,
        tags: tag.trim() ? [tag.trim()] : [],
      });
      await load();
      onPick(body.id);
    } catch (err) {
      setError(String(err instanceof Error ? err.message : err));
    } finally {
      setUploading(false);
    }
  }

  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-label="Asset library" data-testid="asset-picker">
        <div className="modal-head">
          <h2>Asset library</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <div className="row">
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="Folder (e.g. starter/)"
          />
          <input value={tag} onChange={(e) => setTag(e.target.value)} placeholder="Tag" />
          <label className="btn">
            {uploading ? "Uploading…" : "Upload"}
            <input
              type="file"
              accept={IMAGE_TYPES.join(",")}
              hidden
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void upload(file);
              }}
            />
          </label>
        </div>
        {error && <p className="error">{error}</p>}
        <div className="asset-grid">
          {assets === null && <p className="muted">Loading…</p>}
          {assets?.length === 0 && (
            <p className="muted">No images here. Upload one, or change the folder or tag.</p>
          )}
          {assets?.map((a) => (
            <button
              key={a.id}
              type="button"
              className="asset"
              data-testid="asset"
              onClick={() => onPick(a.id)}
              title={a.id}
            >
              <AssetThumb id={a.id} />
              <span className="asset-name">{a.name}</span>
              <span className="muted small">{a.folder || "/"}</span>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
