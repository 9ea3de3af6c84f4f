import { describe, expect, it } from "vitest";
import { scheduleWords } from "./schedule";

describe("schedules in words", () => {
  it("reads the common cron shapes as sentences", () => {
    const cases: [string, string][] = [
      ["0 9 * * *", "every day at 09:00"],
      ["30 8 * * 1", "every Monday at 08:30"],
      ["0 9 * * 1-5", "on weekdays at 09:00"],
      ["0 10 * * 0,6", "at weekends at 10:00"],
      ["15 7 * * 1,3,5", "every Monday, Wednesday and Friday at 07:15"],
      ["*/15 * * * *", "every 15 minutes"],
      ["* * * * *", "every minute"],
      ["0 * * * *", "every hour"],
      ["20 * * * *", "every hour at 20 past"],
      ["0 */6 * * *", "every 6 hours"],
      ["0 0 9 * * *", "every day at 09:00"],
      ["30 6 1 * *", "on day 1 of every month at 06:30"],
    ];
    for (const [expr, words] of cases) expect(scheduleWords(`cron:${expr}`)).toBe(words);
  });
  it("shows what it cannot say as written, and a one-off as a date", () => {
    expect(scheduleWords("cron:0 9 1 1 *")).toBe("on the schedule 0 9 1 1 *");
    expect(scheduleWords("cron:not a cron")).toBe("on the schedule not a cron");
    expect(scheduleWords("cron:0 9 * * MON#2")).toBe("on the schedule 0 9 * * MON#2");
    expect(scheduleWords("at:0")).toMatch(/^once, /);
  });
});
