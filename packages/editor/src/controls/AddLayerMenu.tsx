import { useState } from "react";
import type { Layer } from "../engine/engine-types.ts";
import type { NewLayerKind } from "../model/doc-ops.ts";
import { IconPicker } from "./IconPicker.tsx";

/** The layer kinds without a toolbar key: added at the frame's centre from this menu. */
const MORE: readonly { kind: NewLayerKind; label: string; icon: string }[] = [
  { kind: "line", label: "Line", icon: "╱" },
  { kind: "polygon", label: "Polygon", icon: "⬟" },
  { kind: "star", label: "Star", icon: "★" },
  { kind: "path", label: "Path", icon: "✎" },
  { kind: "icon", label: "Icon…", icon: "☺" },
  { kind: "qr", label: "QR code", icon: "▦" },
  { kind: "barcode", label: "Barcode", icon: "║" },
  { kind: "rating", label: "Rating", icon: "☆" },
];

interface Props {
  /** Adds a new layer of this kind to the selected frame, with these properties over its defaults. */
  onAdd(kind: NewLayerKind, props?: Partial<Layer>): void;
}

/** "Add layer" menu of the toolbar: every layer kind of document v2; an icon is picked first. */
export function AddLayerMenu({ onAdd }: Props) {
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState(false);
  return (
    <div className="add-layer">
      <button
        type="button"
        className={`tool ${open ? "active" : ""}`}
        aria-expanded={open}
        aria-controls="add-layer-menu"
        data-testid="add-layer"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="tool-icon">+</span>
        <span className="tool-label">More</span>
      </button>
      {open && (
        <fieldset className="add-layer-menu" id="add-layer-menu" aria-label="Add a layer">
          {MORE.map((m) => (
            <button
              key={m.kind}
              type="button"
              className="menu-item"
              data-testid={`add-${m.kind}`}
              onClick={() => {
                setOpen(false);
                if (m.kind === "icon") setPicking(true);
                else onAdd(m.kind);
              }}
            >
              <span className="tool-icon">{m.icon}</span> {m.label}
            </button>
          ))}
        </fieldset>
      )}
      {picking && (
        <IconPicker
          onClose={() => setPicking(false)}
          onPick={(icon) => {
            setPicking(false);
            onAdd("icon", { icon } as Partial<Layer>);
          }}
        />
      )}
    </div>
  );
}
