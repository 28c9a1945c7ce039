import { useState } from "react";
import type { Layer } from "../engine/engine-types.ts";
import { MENU_CREATORS } from "../layer-forms/registry.ts";
import type { LayerCreator } from "../layer-forms/types.ts";

interface Props {
  /** Adds a new layer of this kind to the selected frame, with these properties over its defaults. */
  onAdd(creator: LayerCreator, props?: Partial<Layer>): void;
}

/**
 * "Add layer" menu of the toolbar: the layer kinds without a toolbar key (the "more" entries of
 * layer-forms/), added at the frame's centre; a kind with a picker (the icon) asks it first.
 */
export function AddLayerMenu({ onAdd }: Props) {
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState<LayerCreator | null>(null);
  const Picker = picking?.Picker;
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
          {MENU_CREATORS.map((m) => (
            <button
              key={m.id}
              type="button"
              className="menu-item"
              data-testid={`add-${m.id}`}
              onClick={() => {
                setOpen(false);
                if (m.Picker) setPicking(m);
                else onAdd(m);
              }}
            >
              <span className="tool-icon">{m.icon}</span> {m.label}
            </button>
          ))}
        </fieldset>
      )}
      {picking && Picker && (
        <Picker
          onClose={() => setPicking(null)}
          onPick={(props) => {
            setPicking(null);
            onAdd(picking, props);
          }}
        />
      )}
    </div>
  );
}
