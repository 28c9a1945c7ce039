import type { Layer } from "../engine/engine-types.ts";
import { useEditor } from "../store/use-editor.ts";
import { AddLayerMenu } from "./AddLayerMenu.tsx";
import { TOOLS } from "./tools.ts";

/** The canvas tools (a drag on a frame creates that kind) and the "More" menu of the other kinds. */
export function Toolbar() {
  const editor = useEditor();
  const tool = useEditor((s) => s.tool);
  return (
    <div className="toolbar" role="toolbar">
      {TOOLS.map((t) => (
        <button
          key={t.tool}
          type="button"
          className={`tool ${tool === t.tool ? "active" : ""}`}
          title={`${t.label} (${t.key})`}
          data-testid={`tool-${t.tool}`}
          onClick={() => editor.setTool(t.tool)}
        >
          <span className="tool-icon">{t.icon}</span>
          <span className="tool-label">{t.label}</span>
        </button>
      ))}
      <AddLayerMenu
        onAdd={(creator, props?: Partial<Layer>) =>
          editor.createLayer(editor.frameIndex(), creator, null, props)
        }
      />
    </div>
  );
}
