import { useState } from "react";
import { type Account, ApiFailure, api, type RenderJob } from "../api/client.ts";
import { CopyButton } from "../controls/CopyButton.tsx";
import { SelectField } from "../controls/fields.tsx";
import type { SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import { curlFor, toModifications } from "../model/modifications.ts";

interface Props {
  doc: TemplateDocumentT;
  values: SlotValues;
  published: boolean;
}

/** Renders the published template through the real API with the preview values. */
export function TryApiPanel({ doc, values, published }: Props) {
  const [frame, setFrame] = useState(doc.frames[0]?.name ?? "");
  const [scale, setScale] = useState("1");
  const [format, setFormat] = useState<"png" | "jpeg" | "webp">("png");
  const [job, setJob] = useState<RenderJob | null>(null);
  const [credits, setCredits] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const body = {
    template: doc.key,
    frame,
    scale: Number(scale),
    format,
    modifications: toModifications(doc, values),
    wait: true,
  };

  const curl = curlFor(location.origin, body);

  async function run() {
    setBusy(true);
    setError(null);
    setJob(null);
    try {
      const result = await api<RenderJob>("/v1/renders", { body });
      setJob(result);
      setCredits((await api<Account>("/v1/account")).credits_balance);
    } catch (err) {
      setError(err instanceof ApiFailure ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="props">
      <section>
        <h3>Try the API</h3>
        <p className="muted small">
          Renders the <strong>published</strong> version with the Preview tab's values. Costs ⌈scale²⌉
          credits.
        </p>
        {!published && <p className="warn small">Publish first: drafts are not renderable over the API.</p>}
        <div className="grid2">
          <SelectField
            label="Frame"
            value={frame}
            options={doc.frames.map((f) => f.name)}
            onChange={setFrame}
          />
          <SelectField
            label="Scale"
            testId="try-scale"
            value={scale}
            options={["1", "1.5", "2", "3", "4"]}
            onChange={setScale}
          />
          <SelectField<"png" | "jpeg" | "webp">
            label="Format"
            value={format}
            options={["png", "jpeg", "webp"]}
            onChange={setFormat}
          />
        </div>
        <button type="button" className="btn primary" onClick={run} disabled={busy} data-testid="try-render">
          {busy ? "Rendering…" : "Render"}
        </button>
        {error && <p className="error">{error}</p>}
      </section>
      {job && (
        <section data-testid="try-result">
          <h3>Result</h3>
          {job.output_url && <img className="try-image" src={job.output_url} alt="API render" />}
          <dl className="facts">
            <dt>Status</dt>
            <dd>{job.status}</dd>
            <dt>Size</dt>
            <dd>
              {job.width} × {job.height} {job.format}
            </dd>
            <dt>Cost</dt>
            <dd data-testid="try-cost">{plural(job.credits_charged - job.credits_refunded, "credit")}</dd>
            <dt>Credits left</dt>
            <dd data-testid="try-credits">{credits ?? "–"}</dd>
            <dt>Version</dt>
            <dd>v{job.template_version}</dd>
          </dl>
          {job.warnings.length > 0 && (
            <ul className="warnings">
              {job.warnings.map((w) => (
                <li key={`${w.code}-${w.slot ?? ""}-${w.message}`}>
                  <span className="badge warn">{w.code}</span> {w.message}
                </li>
              ))}
            </ul>
          )}
          {job.error && (
            <p className="error">
              {job.error.code}: {job.error.message}
            </p>
          )}
        </section>
      )}
      <section>
        <div className="copy-row">
          <h3>Equivalent curl</h3>
          <CopyButton text={curl} label="Copy the curl command" testId="try-curl-copy" />
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
        <pre className="code nowrap" data-testid="try-curl" tabIndex={0}>
          {curl}
        </pre>
      </section>
    </div>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
