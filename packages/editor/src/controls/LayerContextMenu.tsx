import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { Layer } from "../engine/engine-types.ts";
import { findLayer, updateLayer } from "../model/doc-ops.ts";
import { childLayers } from "../model/layer-tree.ts";
import { selectedIds } from "../model/selection.ts";
import { slotFromLayer } from "../model/slot-from-layer.ts";
import { useEditor } from "../store/use-editor.ts";

interface Props {
  /** Where the menu opens (client pixels): the pointer, or the selection for the keyboard. */
  x: number;
  y: number;
  onClose(): void;
}

interface Item {
  id: string;
  label: string;
  keys?: string;
  disabled?: boolean;
  run(): void;
}

/**
 * The right-click menu of the canvas and the layers panel, acting on the selection (a right-click
 * on a layer outside it selects that layer first): copy, paste, duplicate, group and ungroup, the
 * z-order, lock, hide, delete, and binding a property of one layer to a slot of its type. A menu
 * (role "menu") the arrows walk; Enter runs an entry; Escape, a press outside or a run closes it.
 */
export function LayerContextMenu({ x, y, onClose }: Props) {
  const editor = useEditor();
  const doc = useEditor((s) => s.doc);
  const selection = useEditor((s) => s.selection);
  const locked = useEditor((s) => s.prefs.locked);
  const bindable = useEditor((s) => s.engine?.module.BINDABLE_PROPERTIES ?? {});
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: x, top: y });

  const fi = editor.frameIndex();
  const frame = doc.frames[fi];
  const ids = selectedIds(selection);
  const layers = frame ? ids.flatMap((id) => findLayer(frame.layers as Layer[], id) ?? []) : [];
  const one = layers.length === 1 ? layers[0] : undefined;
  const none = layers.length === 0;
  const a = editor.arrange;
  const allLocked = !none && ids.every((id) => locked.has(id));
  const allHidden = !none && layers.every((l) => l.visible === false);

  const bindItems: Item[] = [];
  if (one) {
    for (const [prop, slotType] of Object.entries(bindable[one.type] ?? {})) {
      const bound = one.bind?.[prop];
      for (const slot of doc.slots.filter((s) => s.type === slotType && s.name !== bound))
        bindItems.push({
          id: `bind-${prop}-${slot.name}`,
          label: `Bind ${prop} to “${slot.name}”`,
          run: () =>
            editor.setDocument(
              updateLayer(editor.getState().doc, fi, one.id, (l) => ({
                ...l,
                bind: { ...(l.bind ?? {}), [prop]: slot.name },
              })),
            ),
        });
      if (!bound)
        bindItems.push({
          id: `newslot-${prop}`,
          label: `New slot from ${prop}`,
          run: () => {
            const made = slotFromLayer(editor.getState().doc, fi, one.id, prop, slotType);
            if (made) editor.setDocument(made.doc);
          },
        });
      if (bound)
        bindItems.push({
          id: `unbind-${prop}`,
          label: `Unbind ${prop} (from “${bound}”)`,
          run: () =>
            editor.setDocument(
              updateLayer(editor.getState().doc, fi, one.id, (l) => {
                const { [prop]: _gone, ...rest } = l.bind ?? {};
                const next = { ...l } as Layer;
                if (Object.keys(rest).length > 0) next.bind = rest;
                else delete next.bind;
                return next;
              }),
            ),
        });
    }
  }

  const sections: Item[][] = [
    [
      { id: "copy", label: "Copy", keys: "Ctrl+C", disabled: none, run: () => a.copy() },
      { id: "paste", label: "Paste", keys: "Ctrl+V", run: () => a.paste() },
      { id: "duplicate", label: "Duplicate", keys: "Ctrl+D", disabled: none, run: () => a.duplicate() },
    ],
    [
      { id: "group", label: "Group", keys: "Ctrl+G", disabled: none, run: () => a.group() },
      {
        id: "ungroup",
        label: "Ungroup",
        keys: "Ctrl+Shift+G",
        disabled: !layers.some((l) => childLayers(l) !== null),
        run: () => a.ungroup(),
      },
    ],
    [
      {
        id: "front",
        label: "Bring to front",
        keys: "Ctrl+Shift+]",
        disabled: none,
        run: () => a.order("front"),
      },
      {
        id: "forward",
        label: "Bring forward",
        keys: "Ctrl+]",
        disabled: none,
        run: () => a.order("forward"),
      },
      {
        id: "backward",
        label: "Send backward",
        keys: "Ctrl+[",
        disabled: none,
        run: () => a.order("backward"),
      },
      { id: "back", label: "Send to back", keys: "Ctrl+Shift+[", disabled: none, run: () => a.order("back") },
    ],
    [
      {
        id: "lock",
        label: allLocked ? "Unlock" : "Lock",
        keys: "Ctrl+Shift+L",
        disabled: none,
        run: () => a.toggleLock(),
      },
      {
        id: "hide",
        label: allHidden ? "Show" : "Hide",
        keys: "Ctrl+Shift+H",
        disabled: none,
        run: () => a.toggleHidden(),
      },
      { id: "delete", label: "Delete", keys: "Delete", disabled: none, run: () => a.remove() },
    ],
  ];

  // Inside the window: moved left or up when the pointer is near the right or bottom edge.
  useLayoutEffect(() => {
    const r = menu.current?.getBoundingClientRect();
    if (!r) return;
    setPlace({
      left: Math.max(4, Math.min(x, window.innerWidth - r.width - 4)),
      top: Math.max(4, Math.min(y, window.innerHeight - r.height - 4)),
    });
  }, [x, y]);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus();
    const outside = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        onClose();
        before?.focus?.();
      }
    };
    const away = () => onClose();
    window.addEventListener("pointerdown", outside, true);
    window.addEventListener("keydown", key, true);
    window.addEventListener("blur", away);
    return () => {
      window.removeEventListener("pointerdown", outside, true);
      window.removeEventListener("keydown", key, true);
      window.removeEventListener("blur", away);
    };
  }, [onClose]);

  /** Arrows, Home and End move between the entries that can run. */
  function walk(e: React.KeyboardEvent) {
    const items = [
      ...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []),
    ];
    const at = items.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (e.key === "ArrowDown") next = (at + 1) % items.length;
    else if (e.key === "ArrowUp") next = (at - 1 + items.length) % items.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    else if (e.key === "Tab") return onClose();
    else return;
    e.preventDefault();
    e.stopPropagation();
    items[next]?.focus();
  }

  const entry = (item: Item) => (
    <button
      key={item.id}
      type="button"
      role="menuitem"
      className="context-item"
      data-testid={`context-${item.id}`}
      aria-disabled={item.disabled ? "true" : undefined}
      tabIndex={-1}
      onClick={() => {
        if (item.disabled) return;
        onClose();
        item.run();
      }}
    >
      <span>{item.label}</span>
      {item.keys && <kbd className="context-keys">{item.keys}</kbd>}
    </button>
  );

  // Inside the canvas's landmark (the stage), so assistive technology finds it in the page's regions.
  const host = document.querySelector("main.stage-wrap") ?? document.body;
  return createPortal(
    <div
      ref={menu}
      className="context-menu"
      role="menu"
      aria-label={none ? "Canvas" : one ? `Layer ${one.name ?? one.id}` : `${layers.length} layers`}
      data-testid="context-menu"
      style={{ left: place.left, top: place.top }}
      onKeyDown={walk}
      onContextMenu={(e) => e.preventDefault()}
    >
      {sections.map((items, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the sections are a fixed list
        <fieldset key={i} className="context-group">
          {items.map(entry)}
        </fieldset>
      ))}
      {bindItems.length > 0 && (
        <fieldset aria-label="Bind to a slot" className="context-group">
          {bindItems.map(entry)}
        </fieldset>
      )}
    </div>,
    host,
  );
}
