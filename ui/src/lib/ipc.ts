// The window's listeners for the backend's events: each hands its handler the payload.
// The commands, the events and every type come from `../bindings` (tauri-specta, written
// from the Rust signatures); nothing here names an event or a command.

import { events, type CoreNews, type DownloadNews, type HotkeyNews, type LocalServerNews, type SetupNews, type VoiceNews } from "../bindings";

type Handler<T> = (payload: T) => void;
const payload =
  <T>(handler: Handler<T>) =>
  (event: { payload: T }) =>
    handler(event.payload);

/** Every core event (a task queued, a step, a question, an answer). */
export const onCore = (handler: Handler<CoreNews>) => events.coreNews.listen(payload(handler));
export const onVoice = (handler: Handler<VoiceNews>) => events.voiceNews.listen(payload(handler));
export const onHotkey = (handler: Handler<HotkeyNews>) => events.hotkeyNews.listen(payload(handler));
/** Zeta's own model server (the `local` provider), on every change. */
export const onLocalServer = (handler: Handler<LocalServerNews>) => events.localServerNews.listen(payload(handler));
export const onDownload = (handler: Handler<DownloadNews>) => events.downloadNews.listen(payload(handler));
export const onSetup = (handler: Handler<SetupNews>) => events.setupNews.listen(payload(handler));
