// What the chat window shows of push-to-talk: a pure reducer over the backend's
// `zeta:voice` events, and the words for the hotkey's registration.

import type { HotkeyStatus } from "../bindings";
import type { VoiceEvent } from "../bindings";
import type { VoiceState } from "../bindings";

export type VoiceView = {
  state: VoiceState;
  /** Microphone level 0..1 while listening. */
  level: number;
  /** The last command heard, shown until its task is in the conversation. */
  heard: string | null;
  /** One line about the last recording: nothing heard, a cap, a lost device, an error. */
  note: string | null;
  error: boolean;
  /** The speech model the last press found missing (its file name): nothing was recorded. */
  missingModel: string | null;
};

export const idleVoice = (): VoiceView => ({ state: "idle", level: 0, heard: null, note: null, error: false, missingModel: null });

export function applyVoice(view: VoiceView, event: VoiceEvent): VoiceView {
  switch (event.kind) {
    case "state":
      // A new recording clears what the last one said.
      return event.state === "listening"
        ? { ...view, state: event.state, level: 0, heard: null, note: null, error: false, missingModel: null }
        : { ...view, state: event.state, level: 0 };
    case "level":
      return view.state === "listening" ? { ...view, level: Math.max(0, Math.min(1, event.level)) } : view;
    case "heard":
      return { ...view, heard: event.text };
    case "nothingHeard":
      return { ...view, heard: null, note: "Nothing was heard, so no task was made.", error: false };
    case "notice":
      return { ...view, note: event.message, error: false };
    case "error":
      return { ...view, note: event.message, error: true };
    case "noModel":
      return { ...view, state: "idle", note: "Voice needs a speech model first; nothing was recorded.", error: false, missingModel: event.model };
  }
}

/** The heard command stays on screen until a task with that message from `voice` exists. */
export function heardPending(view: VoiceView, tasks: { sender: string; message: string }[]): string | null {
  if (!view.heard) return null;
  return tasks.some((t) => t.sender === "voice" && t.message === view.heard) ? null : view.heard;
}

/** The banner when the hotkey does not work, or null when it does (or is unknown). */
export function hotkeyProblem(status: HotkeyStatus | null): string | null {
  if (!status || status.registered) return null;
  return `Push-to-talk (${status.shortcut}) is unavailable: ${status.error ?? "not registered"}. Instead, ${
    status.alternatives ?? "use the microphone button"
  }, or the microphone button here.`;
}

export function voiceLabel(view: VoiceView): string {
  switch (view.state) {
    case "listening":
      return "Listening… release the key (or press the button) to stop";
    case "transcribing":
      return "Transcribing…";
    default:
      return "";
  }
}

/** A speech model's size in words, for its download button (the catalogue's files). */
export function speechModelLabel(name: string): string {
  const sizes: Record<string, string> = {
    "ggml-base.bin": "148 MB",
    "ggml-base.en.bin": "148 MB",
    "ggml-tiny.en.bin": "78 MB",
    "ggml-small.bin": "488 MB",
  };
  return sizes[name] ? `Download the speech model (${sizes[name]})` : "Download the speech model";
}
