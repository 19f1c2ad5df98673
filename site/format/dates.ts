/**
 * Date formatting for pages that render twice, on the build machine and in the visitor's browser: the
 * locale and time zone are fixed so both produce the same text and hydration never mismatches. Times are
 * shown in UTC, the zone the API speaks, and say so.
 */

const LOCALE = 'en-GB';
const TIME_ZONE = 'UTC';

const dayFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' });
const shortDayFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' });
const monthFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, month: 'long', year: 'numeric' });
const weekdayFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, weekday: 'long' });
const shortMonthFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, month: 'short' });
const timeFormat = new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function toDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * `format` with its answers remembered: a build formats the same few thousand dates on tens of
 * thousands of pages, and Intl formatting is the costly part. Bounded, so a long-lived tab cannot grow it.
 */
function remembered(format: (iso: string) => string): (iso: string) => string {
  const seen = new Map<string, string>();
  return (iso) => {
    let text = seen.get(iso);
    if (text === undefined) {
      if (seen.size >= REMEMBERED_DATES) seen.clear();
      text = format(iso);
      seen.set(iso, text);
    }
    return text;
  };
}

const REMEMBERED_DATES = 20_000;

/** `14 March 2026`; an unparseable value is shown as it came rather than as "Invalid Date". */
export const formatDay = remembered((iso: string): string => {
  const date = toDate(iso);
  return date ? dayFormat.format(date) : iso;
});

/** `14 Mar 2026`, for dense lists. */
export const formatShortDay = remembered((iso: string): string => {
  const date = toDate(iso);
  return date ? shortDayFormat.format(date) : iso;
});

/** `March 2026`, for project periods. */
export const formatMonth = remembered((iso: string): string => {
  const date = toDate(iso);
  return date ? monthFormat.format(date) : iso;
});

/** `Saturday`. */
export const formatWeekday = remembered((iso: string): string => {
  const date = toDate(iso);
  return date ? weekdayFormat.format(date) : '';
});

/** `09:30`, for the first half of a time span whose end names the zone. */
export const formatClock = remembered((iso: string): string => {
  const date = toDate(iso);
  return date ? timeFormat.format(date) : '';
});

/** `09:30 UTC`. */
export function formatTime(iso: string): string {
  const clock = formatClock(iso);
  return clock ? `${clock} ${TIME_ZONE}` : '';
}

/** True when both instants fall on the same UTC calendar day. */
export function isSameDay(a: string, b: string): boolean {
  return a.slice(0, 10) === b.slice(0, 10);
}

/** The parts of an ISO date that a calendar-style date badge shows: day of month and short month. */
export function dayAndMonth(iso: string): { day: string; month: string } {
  const date = toDate(iso);
  if (!date) return { day: '', month: '' };
  return {
    day: String(date.getUTCDate()),
    month: shortMonthFormat.format(date),
  };
}
