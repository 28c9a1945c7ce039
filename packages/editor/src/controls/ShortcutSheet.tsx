import { useRef } from "react";
import { SHORTCUT_SECTIONS } from "./shortcut-list.ts";
import { useModalFocus } from "./use-modal-focus.ts";

/**
 * The keyboard shortcut sheet (`?`, or the bar's "?" button): a modal dialog listing every shortcut
 * by section. Escape, the close button or a press outside closes it; focus returns where it was.
 */
export function ShortcutSheet({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  useModalFocus(close, onClose);
  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal shortcut-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-sheet-title"
        data-testid="shortcut-sheet"
      >
        <div className="modal-head">
          <h2 id="shortcut-sheet-title">Keyboard shortcuts</h2>
          <button ref={close} type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <p className="muted small">Ctrl is Cmd on a Mac. Shortcuts wait while a field has focus.</p>
        <div className="shortcut-sections">
          {SHORTCUT_SECTIONS.map((section) => (
            <section key={section.title}>
              <h3>{section.title}</h3>
              <dl>
                {section.rows.map(([keys, action]) => (
                  <div key={keys} className="shortcut-row">
                    <dt>
                      <kbd>{keys}</kbd>
                    </dt>
                    <dd>{action}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}
