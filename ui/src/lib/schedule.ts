// A scheduled job's timing in words. The stored spec is `cron:<expr>` (5 fields: minute
// hour day-of-month month weekday; 6 or 7 with seconds first) or `at:<ms>`. The common
// shapes people schedule are said in words; anything else is shown as written.
// (cronstrue, the usual library for this, stops the chat window from starting under
// WebKitGTK here: its bundle never ran, so the window stayed blank.)

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The weekday field in words: `null` for every day, `undefined` when it is not a shape
 *  said here. */
function weekdays(field: string): string | null | undefined {
  if (field === "*") return null;
  if (field === "1-5" || field.toUpperCase() === "MON-FRI") return "on weekdays";
  if (field === "0,6" || field === "6,0" || field.toUpperCase() === "SAT,SUN") return "at weekends";
  const days = field.split(",").map((d) => Number(d));
  if (days.every((d) => Number.isInteger(d) && d >= 0 && d <= 7)) {
    const names = days.map((d) => DAYS[d % 7]);
    return `every ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0]}`;
  }
  return undefined;
}

function cronWords(expr: string): string | null {
  let fields = expr.trim().split(/\s+/);
  if (fields.length === 6 || fields.length === 7) fields = fields.slice(1, 6);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields;
  const n = (v: string) => (/^\d+$/.test(v) ? Number(v) : NaN);
  const every = /^\*\/(\d+)$/;
  if (dom !== "*" || month !== "*") {
    if (month === "*" && Number.isInteger(n(dom)) && dow === "*" && Number.isInteger(n(minute)) && Number.isInteger(n(hour))) {
      return `on day ${n(dom)} of every month at ${String(n(hour)).padStart(2, "0")}:${String(n(minute)).padStart(2, "0")}`;
    }
    return null;
  }
  const days = weekdays(dow);
  if (days === undefined) return null;
  const suffix = days ? ` ${days}` : "";
  if (every.test(minute) && hour === "*") return `every ${minute.match(every)?.[1]} minutes${suffix}`;
  if (minute === "*" && hour === "*") return `every minute${suffix}`;
  if (Number.isInteger(n(minute)) && hour === "*") return n(minute) === 0 ? `every hour${suffix}` : `every hour at ${n(minute)} past${suffix}`;
  if (Number.isInteger(n(minute)) && every.test(hour)) return `every ${hour.match(every)?.[1]} hours${suffix}`;
  if (Number.isInteger(n(minute)) && Number.isInteger(n(hour))) {
    const time = `${String(n(hour)).padStart(2, "0")}:${String(n(minute)).padStart(2, "0")}`;
    return days ? `${days} at ${time}` : `every day at ${time}`;
  }
  return null;
}

export function scheduleWords(spec: string): string {
  if (spec.startsWith("cron:")) {
    const expr = spec.slice(5).trim();
    return cronWords(expr) ?? `on the schedule ${expr}`;
  }
  if (spec.startsWith("at:")) {
    const ms = Number(spec.slice(3));
    if (Number.isFinite(ms)) {
      return `once, ${new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`;
    }
  }
  return "once";
}
