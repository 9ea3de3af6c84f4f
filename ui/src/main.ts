import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");

// A window that cannot start says why instead of staying blank.
function shown(error: unknown) {
  if (target && !target.querySelector("main")) {
    target.textContent = `Zeta's window could not start: ${error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error)}`;
  }
}
window.addEventListener("error", (e) => shown(e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => shown(e.reason));

let app: ReturnType<typeof mount>;
try {
  app = mount(App, { target });
} catch (e) {
  shown(e);
  throw e;
}
export default app;
