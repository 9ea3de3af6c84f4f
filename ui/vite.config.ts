import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The app loads the built files from ui/dist (tauri.conf.json frontendDist).
export default defineConfig({
  plugins: [svelte()],
  base: "./",
  clearScreen: false,
  // Two pages: the chat window (index.html) and the confirmation dialog (confirm.html).
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari15",
    rollupOptions: { input: { chat: "index.html", confirm: "confirm.html" } },
  },
  // Components are tested in jsdom with Svelte's browser build.
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
