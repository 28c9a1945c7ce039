import { type RefObject, useEffect } from "react";

/**
 * A modal dialog's keyboard and focus: `first` takes focus when it opens, Escape closes it (before
 * any shortcut sees the key), and focus returns where it was when it closes.
 */
export function useModalFocus(first: RefObject<HTMLElement | null>, onClose: () => void): void {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    first.current?.focus();
    const key = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    window.addEventListener("keydown", key, true);
    return () => {
      window.removeEventListener("keydown", key, true);
      before?.focus?.();
    };
  }, [first, onClose]);
}
