import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The app loads the built files from ui/dist (tauri.conf.json frontendDist).
export default defineConfig({
  plugins: [svelte()],
  base: "./",
  clearScreen: false,
  build: { outDir: "dist", emptyOutDir: true, target: "safari15" },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
