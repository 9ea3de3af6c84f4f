import { describe, expect, it } from "vitest";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import { describeEndpoint, moved, problemsByField, providerFor } from "./settingsForm";

const base: ProviderSettings = {
  kind: "none", baseUrl: "", model: "", protocol: "json", stream: true, idleTimeoutMs: 120000, maxAttempts: 4, contextWindow: 32768,
};

describe("the settings form", () => {
  it("puts each problem beside its field", () => {
    const byField = problemsByField([
      { field: "provider.baseUrl", message: "must start with http://" },
      { field: "maxIterations", message: "too big" },
      { field: "provider.baseUrl", message: "again" },
    ]);
    expect(byField["provider.baseUrl"]).toBe("must start with http://; again");
    expect(byField.maxIterations).toBe("too big");
  });

  it("moves fallback providers within bounds", () => {
    expect(moved(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(moved(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("offers a detected local server as a provider", () => {
    const found = { kind: "ollama" as const, baseUrl: "http://127.0.0.1:11434", models: ["qwen2.5:3b", "llama3.2"] };
    expect(providerFor(found, base)).toMatchObject({ kind: "ollama", baseUrl: found.baseUrl, model: "qwen2.5:3b", protocol: "auto" });
    expect(describeEndpoint(found)).toBe("Ollama at http://127.0.0.1:11434 with qwen2.5:3b, llama3.2");
    expect(describeEndpoint({ kind: "openai", baseUrl: "http://127.0.0.1:8080/v1", models: [] })).toBe(
      "An OpenAI-compatible server at http://127.0.0.1:8080/v1",
    );
  });
});
