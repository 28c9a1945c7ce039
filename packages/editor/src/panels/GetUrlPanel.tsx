import { signImageUrl } from "@pictor/client/sign-image-url";
import { useCallback, useEffect, useState } from "react";
import { ApiFailure, api } from "../api/client.ts";
import { CopyButton } from "../controls/CopyButton.tsx";
import { SelectField } from "../controls/fields.tsx";
import type { SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";

interface SigningKey {
  id: string;
  name: string | null;
  secret_prefix: string;
}

interface Props {
  doc: TemplateDocumentT;
  values: SlotValues;
  published: boolean;
  publishedVersion: number | null;
}

/**
 * A key's secret is shown once, when it is created: the tab keeps the secrets it was given in
 * sessionStorage (like the API key: gone when the tab closes), by key id.
 */
const SECRET_PREFIX = "pictor.urlSecret.";
const secretOf = (id: string) => sessionStorage.getItem(`${SECRET_PREFIX}${id}`) ?? "";
const keepSecret = (id: string, secret: string) => sessionStorage.setItem(`${SECRET_PREFIX}${id}`, secret);

/** Preview values as URL parameters: image values name assets as `ast_…`, as the API takes them. */
function urlValues(doc: TemplateDocumentT, values: SlotValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const slot of doc.slots) {
    const value = values[slot.name];
    // A URL carries text: a number as written, a list's items as JSON.
    if (typeof value === "string") out[slot.name] = value.replace(/^asset:\/\//, "");
    else if (value !== undefined)
      out[slot.name] = typeof value === "number" ? String(value) : JSON.stringify(value);
  }
  return out;
}

/**
 * Get URL: a signed on-demand image URL (docs/on-demand-urls.md) for the published template with the
 * Preview tab's values, signed in the page with one of the account's URL-signing keys.
 */
export function GetUrlPanel({ doc, values, published, publishedVersion }: Props) {
  const [keys, setKeys] = useState<SigningKey[] | null>(null);
  const [keyId, setKeyId] = useState("");
  const [secret, setSecret] = useState("");
  const [frame, setFrame] = useState(doc.frames[0]?.name ?? "");
  const [scale, setScale] = useState("1");
  const [format, setFormat] = useState<"png" | "jpg" | "webp">("png");
  const [pin, setPin] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await api<{ data: SigningKey[] }>("/v1/url-signing-keys");
      setKeys(list.data);
      const first = list.data.find((k) => secretOf(k.id) !== "") ?? list.data[0];
      if (first) {
        setKeyId(first.id);
        setSecret(secretOf(first.id));
      }
    } catch (err) {
      setError(err instanceof ApiFailure ? `${err.code}: ${err.message}` : String(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function createKey() {
    setError(null);
    try {
      const created = await api<SigningKey & { secret: string }>("/v1/url-signing-keys", {
        body: { name: `editor (${doc.key})` },
      });
      keepSecret(created.id, created.secret);
      setKeys((k) => [...(k ?? []), created]);
      setKeyId(created.id);
      setSecret(created.secret);
    } catch (err) {
      setError(err instanceof ApiFailure ? `${err.code}: ${err.message}` : String(err));
    }
  }

  const params = urlValues(doc, values);
  const paramsKey = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey stands for params
  useEffect(() => {
    let live = true;
    if (!keyId || !secret.startsWith("ussec_")) {
      setUrl(null);
      return;
    }
    signImageUrl({
      baseUrl: location.origin,
      keyId,
      secret,
      template: doc.key,
      format,
      values: params,
      ...(frame !== doc.frames[0]?.name ? { frame } : {}),
      ...(scale !== "1" ? { scale: Number(scale) } : {}),
      ...(pin && publishedVersion !== null ? { version: publishedVersion } : {}),
    })
      .then((signed) => live && setUrl(signed))
      .catch((err: unknown) => live && setError(String(err instanceof Error ? err.message : err)));
    return () => {
      live = false;
    };
  }, [keyId, secret, doc.key, format, paramsKey, frame, scale, pin, publishedVersion]);

  return (
    <div className="props" data-testid="get-url-panel">
      <section>
        <h3>Get a signed image URL</h3>
        <p className="muted small">
          An <code>&lt;img&gt;</code> or <code>og:image</code> URL rendering the <strong>published</strong>{" "}
          template with the Preview tab's values. The first request renders (⌈scale²⌉ credits), later ones are
          served from the cache for free.
        </p>
        {!published && <p className="warn small">Publish first: the URL renders the published version.</p>}
        {keys === null && !error && <p className="muted small">Loading the URL-signing keys…</p>}
        {keys?.length === 0 && (
          <div>
            <p className="small">This account has no URL-signing key yet.</p>
            <button
              type="button"
              className="btn primary"
              data-testid="create-signing-key"
              onClick={createKey}
            >
              Create a URL-signing key
            </button>
          </div>
        )}
        {keys && keys.length > 0 && (
          <>
            <SelectField
              label="URL-signing key"
              testId="signing-key"
              value={keyId}
              options={keys.map((k) => ({ value: k.id, label: `${k.name ?? k.id} (${k.secret_prefix}…)` }))}
              onChange={(id) => {
                setKeyId(id);
                setSecret(secretOf(id));
              }}
            />
            {secretOf(keyId) === "" && (
              <label className="field">
                <span>Its secret (ussec_…; shown once when the key was created)</span>
                <input
                  type="password"
                  data-testid="signing-secret"
                  value={secret}
                  autoComplete="off"
                  onChange={(e) => {
                    setSecret(e.target.value);
                    if (e.target.value.startsWith("ussec_")) keepSecret(keyId, e.target.value);
                  }}
                />
              </label>
            )}
            <button type="button" className="btn small ghost" onClick={createKey}>
              Create another key
            </button>
          </>
        )}
        <div className="grid2">
          <SelectField
            label="Frame"
            value={frame}
            options={doc.frames.map((f) => f.name)}
            onChange={setFrame}
          />
          <SelectField
            label="Scale"
            value={scale}
            options={["1", "1.5", "2", "3", "4"]}
            onChange={setScale}
          />
          <SelectField<"png" | "jpg" | "webp">
            label="Format"
            value={format}
            options={["png", "jpg", "webp"]}
            onChange={setFormat}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={pin}
              disabled={publishedVersion === null}
              onChange={(e) => setPin(e.target.checked)}
            />
            <span>Pin v{publishedVersion ?? "–"}</span>
          </label>
        </div>
        {error && <p className="error">{error}</p>}
      </section>
      {url && (
        <section>
          <div className="copy-row">
            <h3>URL</h3>
            <CopyButton text={url} label="Copy the signed URL" testId="signed-url-copy" />
          </div>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
          <pre className="code signed-url" data-testid="signed-url" tabIndex={0}>
            {url}
          </pre>
          <a href={url} target="_blank" rel="noreferrer" className="small">
            Open in a new tab
          </a>
        </section>
      )}
    </div>
  );
}
