import { useEffect, useRef } from "react";
import type { FrameT } from "../engine/engine-types.ts";

interface Props {
  frame: FrameT;
  /** The poster moment, seconds: where the scrubber stands while the poster is shown. */
  poster: number;
  /** Seconds shown; null: the poster moment (what a still render draws). */
  time: number | null;
  onTime(time: number | null): void;
  playing: boolean;
  onPlaying(playing: boolean): void;
}

/**
 * Under an animated frame (one with a duration): play/pause and a scrubber over its frames. Every
 * moment shown is one of the frames the API renders (a multiple of 1/fps), drawn by the same engine,
 * so the canvas at t is the API's frame at t.
 */
export function Timeline({ frame, poster, time, onTime, playing, onPlaying }: Props) {
  const duration = frame.duration ?? 0;
  const fps = frame.fps ?? 30;
  const frames = Math.round(duration * fps);
  const shown = time ?? null;
  const latest = useRef(time);
  latest.current = time;

  useEffect(() => {
    if (!playing || frames === 0) return;
    let handle = 0;
    let last = performance.now();
    let at = latest.current ?? 0;
    const tick = (now: number) => {
      at = (at + (now - last) / 1000) % duration;
      last = now;
      onTime(Math.floor(at * fps) / fps);
      handle = requestAnimationFrame(tick);
    };
    handle = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(handle);
  }, [playing, frames, duration, fps, onTime]);

  if (frame.duration === undefined) return null;
  // At the poster the scrubber stands at the poster's frame (not at 0), so Home, or a drag to the
  // start, is a change and shows t = 0.
  const index = Math.min(frames - 1, Math.round((shown ?? poster) * fps));
  return (
    <div className="timeline" data-testid={`timeline-${frame.name}`}>
      <button
        type="button"
        className="icon-btn"
        aria-label={playing ? "Pause" : "Play"}
        onClick={() => onPlaying(!playing)}
      >
        {playing ? "❚❚" : "▶"}
      </button>
      <input
        type="range"
        aria-label="Time"
        min={0}
        max={Math.max(0, frames - 1)}
        step={1}
        value={Math.max(0, index)}
        onChange={(e) => {
          onPlaying(false);
          onTime(Number(e.target.value) / fps);
        }}
      />
      <span className="muted">
        {shown === null ? "poster" : `${shown.toFixed(2)} s`} / {duration} s · {fps} fps
      </span>
      <button
        type="button"
        className="icon-btn"
        aria-label="Show the poster moment"
        onClick={() => {
          onPlaying(false);
          onTime(null);
        }}
      >
        ⌂
      </button>
    </div>
  );
}
