import { createElement, useEffect, useState } from "react";
import { loadEditorEngine } from "../engine/load-engine.ts";

type IconNode = [string, Record<string, string>][];

/** Icons shown at once; a search narrows the set (Lucide has about 1,900). */
const SHOWN = 120;

let nodes: Promise<Record<string, IconNode>> | null = null;

/** The icon set's shapes (the same lucide-static file the engine draws from), for the previews. */
function iconNodes(): Promise<Record<string, IconNode>> {
  nodes ??= import("lucide-static/icon-nodes.json", { with: { type: "json" } }).then(
    (m) => m.default as unknown as Record<string, IconNode>,
  );
  return nodes;
}

/** Names matching every word of the query, names starting with it first. */
export function searchIcons(names: readonly string[], query: string): string[] {
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean);
  if (words.length === 0) return names.slice();
  const hits = names.filter((n) => words.every((w) => n.includes(w)));
  const first = words[0] ?? "";
  return [...hits.filter((n) => n.startsWith(first)), ...hits.filter((n) => !n.startsWith(first))];
}

function IconPreview({ node }: { node: IconNode | undefined }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {(node ?? []).map(([tag, attrs], i) =>
        createElement(tag, {
          key: i,
          ...Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== "key")),
        }),
      )}
    </svg>
  );
}

/** The shipped icon set (the engine's ICON_NAMES), searchable; each icon previewed as drawn. */
export function IconPicker({ onPick, onClose }: { onPick(name: string): void; onClose(): void }) {
  const [names, setNames] = useState<readonly string[]>([]);
  const [shapes, setShapes] = useState<Record<string, IconNode>>({});
  const [query, setQuery] = useState("");
  useEffect(() => {
    let live = true;
    void Promise.all([loadEditorEngine(), iconNodes()]).then(([engine, icons]) => {
      if (!live) return;
      setNames(engine.module.ICON_NAMES);
      setShapes(icons);
    });
    return () => {
      live = false;
    };
  }, []);
  const found = searchIcons(names, query);
  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-label="Icons" data-testid="icon-picker">
        <div className="modal-head">
          <h2>Icons</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <input
          type="search"
          aria-label="Search icons"
          data-testid="icon-search"
          placeholder="Search icons (heart, arrow right…)"
          value={query}
          // biome-ignore lint/a11y/noAutofocus: the dialog was just opened to search it
          autoFocus
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") onClose();
            if (e.key === "Enter" && found[0]) onPick(found[0]);
          }}
        />
        <p className="muted small" role="status">
          {names.length === 0
            ? "Loading…"
            : `${found.length} icon${found.length === 1 ? "" : "s"}${found.length > SHOWN ? `, first ${SHOWN} shown` : ""}`}
        </p>
        <div className="icon-grid">
          {found.slice(0, SHOWN).map((name) => (
            <button
              key={name}
              type="button"
              className="icon-choice"
              data-testid={`icon-${name}`}
              title={name}
              aria-label={name}
              onClick={() => onPick(name)}
            >
              <IconPreview node={shapes[name]} />
              <span className="small">{name}</span>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
