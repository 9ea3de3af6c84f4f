import { describe, expect, it } from "vitest";
import { skillNameProblem, skillRecord } from "./skills";

describe("skills", () => {
  it("words a record", () => {
    expect(skillRecord({ used: 0, succeeded: 0, failed: 0 })).toBe("not used yet");
    expect(skillRecord({ used: 1, succeeded: 1, failed: 0 })).toBe("used once: 1 worked, 0 failed");
    expect(skillRecord({ used: 5, succeeded: 3, failed: 2 })).toBe("used 5 times: 3 worked, 2 failed");
  });
  it("says why a name cannot be a skill's", () => {
    expect(skillNameProblem("weekly-report")).toBe("");
    expect(skillNameProblem("")).not.toBe("");
    expect(skillNameProblem("Weekly Report")).toMatch(/lower-case/);
    expect(skillNameProblem("-a")).toMatch(/hyphen/);
    expect(skillNameProblem("a--b")).toMatch(/hyphen/);
    expect(skillNameProblem("a".repeat(65))).toMatch(/64/);
  });
});
