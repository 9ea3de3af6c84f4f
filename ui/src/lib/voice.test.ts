import { describe, expect, it } from "vitest";
import { applyVoice, heardPending, hotkeyProblem, idleVoice, speechModelLabel, voiceLabel } from "./voice";

describe("voice view", () => {
  it("follows a recording from listening to a heard command", () => {
    let v = applyVoice(idleVoice(), { kind: "state", state: "listening" });
    expect(voiceLabel(v)).toContain("Listening");
    v = applyVoice(v, { kind: "level", level: 0.4 });
    expect(v.level).toBe(0.4);
    v = applyVoice(v, { kind: "state", state: "transcribing" });
    expect(v.level).toBe(0);
    v = applyVoice(v, { kind: "heard", text: "open the browser", speechSecs: 1.2, whisperMs: 400 });
    v = applyVoice(v, { kind: "state", state: "idle" });
    expect(v.heard).toBe("open the browser");
    expect(voiceLabel(v)).toBe("");
  });

  it("shows the heard command until its task exists", () => {
    const v = { ...idleVoice(), heard: "list files" };
    expect(heardPending(v, [])).toBe("list files");
    expect(heardPending(v, [{ sender: "chat", message: "list files" }])).toBe("list files");
    expect(heardPending(v, [{ sender: "voice", message: "list files" }])).toBeNull();
  });

  it("says when nothing was heard, and clears it at the next recording", () => {
    let v = applyVoice(idleVoice(), { kind: "nothingHeard" });
    expect(v.note).toContain("no task");
    v = applyVoice(v, { kind: "state", state: "listening" });
    expect(v.note).toBeNull();
  });

  it("marks errors, keeps levels in range and ignores them when not listening", () => {
    let v = applyVoice(idleVoice(), { kind: "error", message: "no microphone" });
    expect(v.error).toBe(true);
    expect(applyVoice(v, { kind: "level", level: 0.9 }).level).toBe(0);
    v = applyVoice(v, { kind: "state", state: "listening" });
    expect(applyVoice(v, { kind: "level", level: 7 }).level).toBe(1);
  });

  it("words a hotkey that could not be registered with the alternatives", () => {
    expect(hotkeyProblem(null)).toBeNull();
    const ok = { shortcut: "Ctrl+Alt+Space", mode: "hold" as const, registered: true, error: null, alternatives: null };
    expect(hotkeyProblem(ok)).toBeNull();
    const taken = { ...ok, registered: false, error: "taken by another program", alternatives: "use zeta listen" };
    const text = hotkeyProblem(taken) ?? "";
    expect(text).toContain("Ctrl+Alt+Space");
    expect(text).toContain("taken by another program");
    expect(text).toContain("zeta listen");
  });

  it("a press with no speech model records nothing and names the model to download", () => {
    const v = applyVoice(idleVoice(), { kind: "noModel", model: "ggml-base.bin" });
    expect(v.state).toBe("idle");
    expect(v.missingModel).toBe("ggml-base.bin");
    expect(v.error).toBe(false);
    expect(applyVoice(v, { kind: "state", state: "listening" }).missingModel).toBeNull();
    expect(speechModelLabel("ggml-base.bin")).toBe("Download the speech model (148 MB)");
    expect(speechModelLabel("mine.bin")).toBe("Download the speech model");
  });
});
