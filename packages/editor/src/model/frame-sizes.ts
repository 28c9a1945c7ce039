/** The frame sizes the editor offers: social posts, screens, print (A4 at 150 dpi) and display ads. */
export const FRAME_SIZES = [
  { name: "og", label: "Open Graph 1.91:1 1200×630", width: 1200, height: 630 },
  { name: "square", label: "Square post 1:1 1080×1080", width: 1080, height: 1080 },
  { name: "portrait", label: "Portrait post 4:5 1080×1350", width: 1080, height: 1350 },
  { name: "story", label: "Story 9:16 1080×1920", width: 1080, height: 1920 },
  { name: "landscape", label: "Landscape 16:9 1920×1080", width: 1920, height: 1080 },
  { name: "a4", label: "A4 portrait 1240×1754", width: 1240, height: 1754 },
  { name: "banner", label: "X header 1500×500", width: 1500, height: 500 },
  { name: "leaderboard", label: "Leaderboard ad 728×90", width: 728, height: 90 },
  { name: "rectangle", label: "Medium rectangle ad 300×250", width: 300, height: 250 },
] as const;
