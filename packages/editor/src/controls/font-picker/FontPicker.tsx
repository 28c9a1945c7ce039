import { useEffect, useId, useRef, useState } from "react";
import { isFontFile, uploadAsset } from "../../api/upload-asset.ts";
import { accountFonts } from "../../engine/account-fonts.ts";
import type { FamilyInfo } from "./font-families.ts";
import { loadPreviewFace } from "./preview-faces.ts";

interface Props {
  value: string;
  families: readonly FamilyInfo[];
  onChange(family: string): void;
  /** A font was uploaded: list the families again. */
  onUploaded(family: string): void;
}

/** One family in the list, written in its own face once the face has loaded. */
function FamilyOption({
  family,
  selected,
  onPick,
}: {
  family: FamilyInfo;
  selected: boolean;
  onPick(): void;
}) {
  const [face, setFace] = useState<string | null>(null);
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Load the face when the option scrolls into view, not all sixty families at once.
    const el = ref.current;
    if (!el) return;
    let live = true;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      void loadPreviewFace(family).then((name) => live && setFace(name));
    });
    observer.observe(el);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [family]);
  const styles = [...new Set(family.faces.map((f) => `${f.weight}${f.style === "italic" ? "i" : ""}`))];
  return (
    <li>
      <button
        ref={ref}
        type="button"
        className={`font-option ${selected ? "selected" : ""}`}
        aria-pressed={selected}
        data-testid={`font-option-${family.family}`}
        data-face={face ?? ""}
        onClick={onPick}
      >
        <span className="font-sample" style={face ? { fontFamily: `"${face}", sans-serif` } : undefined}>
          {family.family}
        </span>
        <span className="muted small">
          {family.uploaded ? "uploaded · " : ""}
          {styles.length} style{styles.length === 1 ? "" : "s"}: {styles.join(" ")}
        </span>
      </button>
    </li>
  );
}

/** The picker's groups, in order; a family of another category (none shipped today) comes last. */
const CATEGORIES: readonly (readonly [category: string, label: string])[] = [
  ["sans", "Sans serif"],
  ["serif", "Serif"],
  ["display", "Display"],
  ["mono", "Monospace"],
  ["script", "Script"],
  ["handwriting", "Handwriting"],
  ["script-coverage", "World scripts"],
  ["emoji", "Emoji"],
  ["uploaded", "Uploaded"],
];

const groupOf = (family: FamilyInfo) => (family.uploaded ? "uploaded" : (family.category ?? "other"));

/** `families` in the picker's order: by category, each category in the manifest's order. */
function byCategory(
  families: readonly FamilyInfo[],
): { category: string; label: string; families: FamilyInfo[] }[] {
  const known = new Set(CATEGORIES.map(([category]) => category));
  return [...CATEGORIES, ["other", "Other"] as const]
    .map(([category, label]) => ({
      category,
      label,
      families: families.filter((f) =>
        category === "other" ? !known.has(groupOf(f)) : groupOf(f) === category,
      ),
    }))
    .filter((group) => group.families.length > 0);
}

/**
 * The text layer's font: every shipped and uploaded family, each shown in its own face, searchable;
 * upload a TTF/OTF/WOFF/WOFF2 into the account's fonts/ folder from here, or drop one on it
 * (docs/assets.md).
 */
export function FontPicker({ value, families, onChange, onUploaded }: Props) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const listId = useId();
  const q = query.trim().toLowerCase();
  const groups = byCategory(families.filter((f) => f.family.toLowerCase().includes(q)));
  const shown = groups.flatMap((group) => group.families);
  const current = families.find((f) => f.family === value);
  const [currentFace, setCurrentFace] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setCurrentFace(null);
    if (current) void loadPreviewFace(current).then((name) => live && setCurrentFace(name));
    return () => {
      live = false;
    };
  }, [current]);

  async function upload(file: File) {
    setStatus("Uploading…");
    try {
      const body = await uploadAsset(file, { folder: "fonts/" });
      const family = body.font?.family;
      // List the account's fonts again before the document names the family, so the engine's
      // account-font loader finds the new face on the very next draw (renders do the same).
      await accountFonts({ force: true });
      setStatus(family ? `Uploaded ${family}` : "Uploaded");
      if (family) onUploaded(family);
    } catch (err) {
      setStatus(`Upload failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  return (
    // A font file dropped on the picker is uploaded and used, as "Upload a font…" does.
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the upload button is the keyboard's way
    <div
      className="font-picker field"
      data-testid="font-picker-drop"
      onDragOver={(e) => {
        if ([...e.dataTransfer.items].some((i) => i.kind === "file")) e.preventDefault();
      }}
      onDrop={(e) => {
        const file = [...e.dataTransfer.files].find(isFontFile);
        if (!file) return;
        e.preventDefault();
        e.stopPropagation();
        void upload(file);
      }}
    >
      <span>Font</span>
      <button
        type="button"
        className="font-current"
        data-testid="font-picker-open"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => {
          // Each opening starts from the whole list.
          setQuery("");
          setOpen((o) => !o);
        }}
      >
        <span
          data-testid="prop-font-family"
          style={currentFace ? { fontFamily: `"${currentFace}", sans-serif` } : undefined}
        >
          {value}
        </span>
        <span className="muted small">{current?.uploaded ? "uploaded" : ""} ▾</span>
      </button>
      {open && (
        <div className="font-popover" id={listId} data-testid="font-picker">
          <input
            type="search"
            aria-label="Search fonts"
            data-testid="font-search"
            placeholder="Search fonts"
            value={query}
            // biome-ignore lint/a11y/noAutofocus: the picker was just opened to search it
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") setOpen(false);
              if (e.key === "Enter" && shown[0]) {
                onChange(shown[0].family);
                setOpen(false);
              }
            }}
          />
          <ul className="font-list" aria-label="Font families">
            {groups.map((group) => [
              <li
                key={`category-${group.category}`}
                className="font-category muted small"
                data-testid={`font-category-${group.category}`}
              >
                {group.label}
              </li>,
              ...group.families.map((f) => (
                <FamilyOption
                  key={f.family}
                  family={f}
                  selected={f.family === value}
                  onPick={() => {
                    onChange(f.family);
                    setOpen(false);
                  }}
                />
              )),
            ])}
            {shown.length === 0 && <li className="muted small">No family matches “{query}”.</li>}
          </ul>
          <label className="btn small font-upload">
            Upload a font…
            <input
              type="file"
              accept=".ttf,.otf,.woff,.woff2,font/ttf,font/otf,font/woff,font/woff2"
              data-testid="font-upload"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void upload(file);
                e.target.value = "";
              }}
            />
          </label>
          {status && (
            <p className="muted small" role="status">
              {status}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
