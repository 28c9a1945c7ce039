import type { ZoomTarget } from "../store/view.ts";

interface Props {
  zoomTo(what: ZoomTarget): void;
  rulers: boolean;
  onRulers(show: boolean): void;
}

/** The bar's view buttons after − zoom +: fit, selection, 100 %, rulers. */
export function ZoomControls({ zoomTo, rulers, onRulers }: Props) {
  const button = (testId: string, title: string, label: string, what: ZoomTarget) => (
    <button
      type="button"
      className="btn ghost small"
      title={title}
      data-testid={testId}
      onClick={() => zoomTo(what)}
    >
      {label}
    </button>
  );
  return (
    <>
      {button("zoom-fit", "Fit all frames (Shift+1)", "Fit", "fit")}
      {button("zoom-selection", "Zoom to the selection (Shift+2)", "Selection", "selection")}
      {button("zoom-100", "Actual size (Shift+0)", "100%", "actual")}
      <button
        type="button"
        className={`btn ghost small ${rulers ? "active" : ""}`}
        title="Rulers and guides"
        aria-pressed={rulers}
        data-testid="toggle-rulers"
        onClick={() => onRulers(!rulers)}
      >
        Rulers
      </button>
    </>
  );
}
