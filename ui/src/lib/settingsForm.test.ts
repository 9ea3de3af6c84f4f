import { describe, expect, it } from "vitest";
import type { ProviderSettings } from "../bindings";
import { describeEndpoint, downloadLine, setupLine, isChanged, moved, problemsByField, problemSummary, providerFor, describeLocalServer } from "./settingsForm";

const base: ProviderSettings = {
  kind: "none", baseUrl: "", model: "", protocol: "json", stream: true, idleTimeoutMs: 120000, maxAttempts: 4, contextWindow: 32768, replyTimeoutSecs: 900, maxReplyBytes: 4194304, keepWarmSecs: 600,
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

describe("describeLocalServer", () => {
  it("says what Zeta's model server is doing", () => {
    expect(describeLocalServer({ state: "stopped" })).toContain("first local task");
    expect(
      describeLocalServer({ state: "ready", port: 4321, pid: 77, model: "m.gguf", program: "python", startupMs: 2300 }),
    ).toBe("Ready on 127.0.0.1:4321 (pid 77), started in 2.3 s.");
    expect(describeLocalServer({ state: "restarting", reason: "it exited", attempt: 2 })).toBe(
      "Restarting (attempt 2): it exited",
    );
    expect(describeLocalServer({ state: "failed", error: "no model" })).toBe("Failed: no model");
  });
});

describe("the save summary", () => {
  it("names each field in words and drops the loader's fallback", () => {
    const said = problemSummary({ "provider.baseUrl": '"ftp://x" must start with http:// or https://; using none', maxIterations: "must be from 1 to 1,000 (it is 0); using 25" });
    expect(said).toBe('Not saved. Base URL: "ftp://x" must start with http:// or https:// · Most steps per task: must be from 1 to 1,000 (it is 0)');
  });
  it("is empty without problems", () => {
    expect(problemSummary({})).toBe("");
  });
  it("sees a change and its undoing", () => {
    expect(isChanged({ a: 1 }, { a: 1 })).toBe(false);
    expect(isChanged({ a: 2 }, { a: 1 })).toBe(true);
  });
});

describe("the download line", () => {
  it("gives the size, what was kept and an honest time left", () => {
    expect(downloadLine({ received: 312e6, total: 1117e6, etaSecs: null, resumedFrom: 0 })).toBe("312 of 1,117 MB · measuring the speed…");
    expect(downloadLine({ received: 312e6, total: 1117e6, etaSecs: 250, resumedFrom: 100e6 })).toBe("312 of 1,117 MB · continued from 100 MB · about 4 min left");
    expect(downloadLine({ received: 5e6, total: null, etaSecs: 30, resumedFrom: 0 })).toBe("5 MB · less than a minute left");
  });
});

describe("the server install line", () => {
  it("says the time against the estimate and the latest step", () => {
    expect(setupLine({ line: "Building wheel for llama-cpp-python", elapsedSecs: 240, estimateSecs: 600 })).toBe("4 of about 10 min · Building wheel for llama-cpp-python");
    expect(setupLine({ line: "x", elapsedSecs: 700, estimateSecs: 600 })).toContain("longer than usual");
  });
});
