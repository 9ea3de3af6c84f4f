// Skills as the window words them: a record in a line, and why a name cannot be one.

import type { SkillView } from "../bindings";

/** "used 5 times: 4 worked, 1 failed", or "not used yet". */
export function skillRecord(skill: Pick<SkillView, "used" | "succeeded" | "failed">): string {
  if (skill.used === 0) return "not used yet";
  const times = skill.used === 1 ? "once" : `${skill.used} times`;
  return `used ${times}: ${skill.succeeded} worked, ${skill.failed} failed`;
}

/** Why `name` cannot be a skill's name (the common format's rule), or "". */
export function skillNameProblem(name: string): string {
  const n = name.trim();
  if (n === "") return "A skill needs a name.";
  if (n.length > 64) return "At most 64 characters.";
  if (!/^[a-z0-9-]+$/.test(n)) return "Only lower-case letters, digits and hyphens.";
  if (n.startsWith("-") || n.endsWith("-") || n.includes("--")) return "A hyphen may not start or end it, nor follow another.";
  return "";
}
