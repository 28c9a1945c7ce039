import { useEffect, useRef, useState } from "react";
import type { Layer } from "../engine/engine-types.ts";
import { MENU_CREATORS } from "../layer-forms/registry.ts";
import type { LayerCreator } from "../layer-forms/types.ts";

interface Props {
  /** Adds a new layer of this kind to the selected frame, with these properties over its defaults. */
  onAdd(creator: LayerCreator, props?: Partial<Layer>): void;
}

/** Where the open menu sits on screen: below its button, moved left as far as the window needs. */
interface Place {
  top: number;
  left: number;
}

const MENU_WIDTH = 180;

/**
 * "Add layer" menu of the toolbar: the layer kinds without a toolbar key (the "more" entries of
 * layer-forms/), added at the frame's centre; a kind with a picker (the icon) asks it first.
 *
 * The menu is placed in the window (position: fixed) rather than in the left panel: the panel
 * scrolls, so a menu inside it wider than the space right of the button would be cut at its edge.
 * Escape or a press outside closes it.
 */
export function AddLayerMenu({ onAdd }: Props) {
  const [place, setPlace] = useState<Place | null>(null);
  const [picking, setPicking] = useState<LayerCreator | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const Picker = picking?.Picker;
  const open = place !== null;

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setPlace(null);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setPlace(null);
      toggle.current?.focus();
    };
    window.addEventListener("pointerdown", outside, true);
    window.addEventListener("keydown", key);
    return () => {
      window.removeEventListener("pointerdown", outside, true);
      window.removeEventListener("keydown", key);
    };
  }, [open]);

  function openOrClose() {
    const r = toggle.current?.getBoundingClientRect();
    if (open || !r) return setPlace(null);
    setPlace({ top: r.bottom + 4, left: Math.max(4, Math.min(r.left, window.innerWidth - MENU_WIDTH - 4)) });
  }

  return (
    <div className="add-layer" ref={wrap}>
      <button
        ref={toggle}
        type="button"
        className={`tool ${open ? "active" : ""}`}
        aria-expanded={open}
        aria-controls="add-layer-menu"
        data-testid="add-layer"
        onClick={openOrClose}
      >
        <span className="tool-icon">+</span>
        <span className="tool-label">More</span>
      </button>
      {place && (
        <fieldset
          className="add-layer-menu"
          id="add-layer-menu"
          aria-label="Add a layer"
          style={{ top: place.top, left: place.left, width: MENU_WIDTH }}
        >
          {MENU_CREATORS.map((m) => (
            <button
              key={m.id}
              type="button"
              className="menu-item"
              data-testid={`add-${m.id}`}
              onClick={() => {
                setPlace(null);
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
