import type { AlignEdge, ZOrder } from "../model/arrange.ts";
import type { ArrangeActions } from "../store/arrange-actions.ts";

interface Props {
  actions: ArrangeActions;
  count: number;
  isGroup: boolean;
  locked: boolean;
  hidden: boolean;
  toFrame: boolean;
  onToFrame(value: boolean): void;
}

const ALIGN: { edge: AlignEdge; icon: string; label: string; key: string }[] = [
  { edge: "left", icon: "⇤", label: "Align left", key: "Alt+A" },
  { edge: "center", icon: "↔", label: "Align centre", key: "Alt+H" },
  { edge: "right", icon: "⇥", label: "Align right", key: "Alt+D" },
  { edge: "top", icon: "⤒", label: "Align top", key: "Alt+W" },
  { edge: "middle", icon: "↕", label: "Align middle", key: "Alt+V" },
  { edge: "bottom", icon: "⤓", label: "Align bottom", key: "Alt+S" },
];

const ORDER: { op: ZOrder; icon: string; label: string; key: string }[] = [
  { op: "front", icon: "⇈", label: "Bring to front", key: "Ctrl+Shift+]" },
  { op: "forward", icon: "↑", label: "Bring forward", key: "Ctrl+]" },
  { op: "backward", icon: "↓", label: "Send backward", key: "Ctrl+[" },
  { op: "back", icon: "⇊", label: "Send to back", key: "Ctrl+Shift+[" },
];

/** Arrangement of the selected layers: align, distribute, z-order, group, lock, hide, delete. */
export function ArrangeBar({ actions, count, isGroup, locked, hidden, toFrame, onToFrame }: Props) {
  const btn = (
    testId: string,
    icon: string,
    label: string,
    key: string,
    run: () => void,
    disabled = false,
  ) => (
    <button
      key={testId}
      type="button"
      className="icon-btn"
      data-testid={testId}
      title={`${label} (${key})`}
      aria-label={label}
      disabled={disabled}
      onClick={run}
    >
      {icon}
    </button>
  );
  return (
    <div className="arrange" data-testid="arrange-bar">
      <div className="arrange-row" role="toolbar" aria-label="Align">
        {ALIGN.map((a) => btn(`align-${a.edge}`, a.icon, a.label, a.key, () => actions.align(a.edge)))}
      </div>
      <div className="arrange-row" role="toolbar" aria-label="Distribute and order">
        {btn("distribute-x", "⋯", "Distribute horizontally", "Alt+Shift+H", () => actions.distribute("x"))}
        {btn("distribute-y", "⋮", "Distribute vertically", "Alt+Shift+V", () => actions.distribute("y"))}
        {ORDER.map((o) => btn(`order-${o.op}`, o.icon, o.label, o.key, () => actions.order(o.op)))}
      </div>
      <label className="arrange-frame">
        <input
          type="checkbox"
          data-testid="align-to-frame"
          checked={toFrame || count === 1}
          disabled={count === 1}
          onChange={(e) => onToFrame(e.target.checked)}
        />
        Align to the frame
      </label>
      <div className="arrange-row" role="toolbar" aria-label="Layer">
        <button
          type="button"
          className="btn small"
          data-testid="group"
          title="Group (Ctrl+G)"
          onClick={actions.group}
        >
          Group
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="ungroup"
          title="Ungroup (Ctrl+Shift+G)"
          disabled={!isGroup}
          onClick={actions.ungroup}
        >
          Ungroup
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="lock"
          title={`${locked ? "Unlock" : "Lock"} (Ctrl+Shift+L)`}
          aria-pressed={locked}
          onClick={actions.toggleLock}
        >
          {locked ? "Unlock" : "Lock"}
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="hide"
          title={`${hidden ? "Show" : "Hide"} (Ctrl+Shift+H)`}
          aria-pressed={hidden}
          onClick={actions.toggleHidden}
        >
          {hidden ? "Show" : "Hide"}
        </button>
        <button
          type="button"
          className="btn small ghost danger"
          data-testid="delete-layer"
          title="Delete (Del)"
          onClick={actions.remove}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
