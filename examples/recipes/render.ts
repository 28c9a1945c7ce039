// Render one image from a Node script and save it. Run: PICTOR_API_KEY=sk_live_… node render.ts out.png
import { writeFile } from "node:fs/promises";
import { Pictor, PictorError } from "@pictor/client";

const pictor = new Pictor({
  apiKey: process.env.PICTOR_API_KEY ?? "",
  baseUrl: process.env.PICTOR_URL ?? "http://127.0.0.1:8080",
});

try {
  const job = await pictor.renders.create(
    {
      template: "blog-og-card",
      modifications: [
        { name: "headline", text: "Rendered from a Node script" },
        { name: "accent", color: "#E4572E" },
      ],
      metadata: { source: "recipe" },
    },
    { wait: true },
  );
  // asset_url is permanent: store it. output_url expires after about an hour.
  const image = await fetch(job.asset_url ?? "");
  await writeFile(process.argv[2] ?? "out.png", new Uint8Array(await image.arrayBuffer()));
  console.log(`${job.id}: ${job.width}x${job.height}, ${job.credits_charged} credit(s), ${job.asset_url}`);
} catch (error) {
  if (error instanceof PictorError) {
    console.error(`${error.code} (${error.status}, request ${error.requestId}): ${error.message}`);
    process.exit(1);
  }
  throw error;
}
