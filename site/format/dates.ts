/**
 * Date formatting for pages that render twice, on the build machine and in the visitor's browser: the
 * locale is fixed and the time zone is the institute's own (the site data's `timeZone`, an IANA name
 * such as `Europe/Oslo`), never the machine's, so both produce the same text, hydration never
 * mismatches, and a build's bytes do not depend on where it runs. Times name their zone (`CET`).
 */

const LOCALE = 'en-GB';

/** The zone dates are shown in when the site data names none. */
export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * `zone` when Intl knows it; otherwise an error naming the field and the value, for the build to report.
 * Every date a page shows asks again, and making a formatter to find out costs about as much as
 * rendering a small page, so a zone found good is remembered.
 */
export function checkTimeZone(zone: string): string {
  if (knownZones.has(zone)) return zone;
  try {
    new Intl.DateTimeFormat(LOCALE, { timeZone: zone });
    knownZones.add(zone);
    return zone;
  } catch {
    throw new Error(
      `The site's timeZone '${zone}' is not an IANA time zone name (such as Europe/Oslo); set site.timeZone in the content backend to one.`,
    );
  }
}

const knownZones = new Set<string>();

type Style = 'day' | 'shortDay' | 'month' | 'weekday' | 'shortMonth' | 'dayOfMonth' | 'clock' | 'zoneName' | 'parts';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  day: { day: 'numeric', month: 'long', year: 'numeric' },
  shortDay: { day: 'numeric', month: 'short', year: 'numeric' },
  month: { month: 'long', year: 'numeric' },
  weekday: { weekday: 'long' },
  shortMonth: { month: 'short' },
  dayOfMonth: { day: 'numeric' },
  clock: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  zoneName: { hour: '2-digit', hourCycle: 'h23', timeZoneName: 'short' },
  parts: { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(style: Style, zone: string): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(LOCALE, { ...OPTIONS[style], timeZone: checkTimeZone(zone) })));
  return format;
}

function toDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * `format` with its answers remembered: a build formats the same few thousand dates on tens of
 * thousands of pages, and Intl formatting is the costly part. Bounded, so a long-lived tab cannot grow it.
 */
function remembered(
  format: (date: Date, zone: string) => string,
  invalid: (iso: string) => string = () => '',
): (iso: string, zone?: string) => string {
  const seen = new Map<string, string>();
  return (iso, zone = DEFAULT_TIME_ZONE) => {
    const key = `${zone} ${iso}`;
    let text = seen.get(key);
    if (text === undefined) {
      if (seen.size >= REMEMBERED_DATES) seen.clear();
      const date = toDate(iso);
      text = date ? format(date, zoneFor(iso, zone)) : invalid(iso);
      seen.set(key, text);
    }
    return text;
  };
}

const REMEMBERED_DATES = 20_000;

/** `14 March 2026`; an unparseable value is shown as it came rather than as "Invalid Date". */
export const formatDay = remembered(
  (date, zone) => formatter('day', zone).format(date),
  (iso) => iso,
);

/** `14 Mar 2026`, for dense lists. */
export const formatShortDay = remembered(
  (date, zone) => formatter('shortDay', zone).format(date),
  (iso) => iso,
);

/** `March 2026`, for project periods. */
export const formatMonth = remembered(
  (date, zone) => formatter('month', zone).format(date),
  (iso) => iso,
);

/** `Saturday`. */
export const formatWeekday = remembered((date, zone) => formatter('weekday', zone).format(date));

/** `09:30`, for the first half of a time span whose end names the zone. */
export const formatClock = remembered((date, zone) => formatter('clock', zone).format(date));

/** The zone's abbreviation at that instant: `CET` in winter, `CEST` in summer, `UTC`. */
export const formatZoneName = remembered(
  (date, zone) =>
    formatter('zoneName', zone)
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? zone,
);

/** `09:30 CET`. */
export function formatTime(iso: string, zone: string = DEFAULT_TIME_ZONE): string {
  const clock = formatClock(iso, zone);
  return clock ? `${clock} ${formatZoneName(iso, zone)}` : '';
}

/** True when both instants fall on the same calendar day in `zone`. */
export function isSameDay(a: string, b: string, zone: string = DEFAULT_TIME_ZONE): boolean {
  return localDate(a, zone) === localDate(b, zone);
}

/** The parts of a date that a calendar-style date badge shows, in `zone`: day of month and short month. */
export function dayAndMonth(iso: string, zone: string = DEFAULT_TIME_ZONE): { day: string; month: string } {
  const date = toDate(iso);
  if (!date) return { day: '', month: '' };
  return { day: formatter('dayOfMonth', zoneFor(iso, zone)).format(date), month: formatter('shortMonth', zoneFor(iso, zone)).format(date) };
}

/**
 * The instant as ISO 8601 in `zone`, with its offset: `2026-12-01T18:30:00+01:00` (structured data).
 * A value without a time (an all-day date) or that does not parse is returned as it is.
 */
export function isoInZone(iso: string, zone: string = DEFAULT_TIME_ZONE): string {
  const date = /T\d/.test(iso) ? toDate(iso) : null;
  if (!date) return iso;
  const parts = Object.fromEntries(
    formatter('parts', zone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const offset = Math.round((Date.parse(`${local}Z`) - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The zone to read `iso` in: `zone` for an instant; UTC for a date without a time (an all-day date,
 * which JavaScript reads as UTC midnight), so it never shifts a day west of Greenwich.
 */
function zoneFor(iso: string, zone: string): string {
  return /T\d/.test(iso) ? zone : 'UTC';
}

/** `2026-12-01`: the calendar day of an instant in `zone`; a value without a time is its own day. */
function localDate(iso: string, zone: string): string {
  if (!/T\d/.test(iso)) return iso.slice(0, 10);
  const date = toDate(iso);
  if (!date) return iso.slice(0, 10);
  return isoInZone(iso, zone).slice(0, 10);
}
