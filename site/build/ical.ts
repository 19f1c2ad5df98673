/**
 * iCalendar (RFC 5545) for events: one file per event to add it to a calendar, one per category to
 * subscribe to. Times are instants in UTC (`…Z`, which every calendar converts without a VTIMEZONE
 * block), and the calendar names the institute's zone (X-WR-TIMEZONE) for the apps that show a
 * calendar in its own zone. Lines end in CRLF and fold at 75 octets.
 */

export interface CalendarEvent {
  /** Globally unique and stable across builds: calendars update an event they already know by it. */
  uid: string;
  title: string;
  startsAt: string;
  endsAt: string;
  /** Last change of the event (DTSTAMP and LAST-MODIFIED). */
  updatedAt: string;
  location: string;
  description: string;
  /** Absolute URL of the event's page. */
  url: string;
  categories?: readonly string[];
}

export interface Calendar {
  /** Shown as the calendar's name by apps that support X-WR-CALNAME. */
  name: string;
  /** Organisation and product for PRODID, e.g. `Northlight Institute`. */
  producer: string;
  /** The institute's IANA time zone, named as X-WR-TIMEZONE. @default none */
  timeZone?: string;
  events: readonly CalendarEvent[];
}

/** The calendar file. */
export function renderCalendar(calendar: Calendar): string {
  return calendarFile(calendar, calendar.events.map(renderEvent));
}

/**
 * One event's VEVENT block as a calendar file holds it: folded, its lines joined by CRLF (without the last
 * one). Made once for each file that lists the event (calendarFile), where renderCalendar makes it again.
 */
export function renderEvent(event: CalendarEvent): string {
  return eventLines(event).map(fold).join('\r\n');
}

/** The calendar file of `calendar` holding `events`, each made by renderEvent: the same bytes as renderCalendar's. */
export function calendarFile(calendar: Omit<Calendar, 'events'>, events: readonly string[]): string {
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(calendar.producer)}//Institute site//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    ...(calendar.timeZone ? [`X-WR-TIMEZONE:${escapeText(calendar.timeZone)}`] : []),
  ];
  return [...head.map(fold), ...events, 'END:VCALENDAR'].join('\r\n') + '\r\n';
}

/** `2026-11-24T18:30:00Z` → `20261124T183000Z`. */
export function icalDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a date-time: '${iso}'.`);
  return date
    .toISOString()
    .replace(/\.\d{3}/, '')
    .replace(/[-:]/g, '');
}

/** TEXT values: backslash, semicolon and comma escaped, newlines as `\n` (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line into chunks of at most 75 octets, continuation lines starting with a space; never inside a character. */
export function fold(line: string): string {
  // Most lines are short ASCII: their length is their size, with no encoding pass at all.
  if (line.length <= 25 || (line.length <= 75 && !/[^ -~]/.test(line))) return line;
  if (utf8Length(line) <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = utf8Length(ch);
    // The first line holds 75 octets; continuation lines 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

// --- internal ---

/** UTF-8 size of a string, counted without allocating (one code point is 1–4 octets). */
function utf8Length(text: string): number {
  let octets = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    octets += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return octets;
}

function eventLines(event: CalendarEvent): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${icalDateTime(event.updatedAt)}`,
    `LAST-MODIFIED:${icalDateTime(event.updatedAt)}`,
    `DTSTART:${icalDateTime(event.startsAt)}`,
    `DTEND:${icalDateTime(event.endsAt)}`,
    `SUMMARY:${escapeText(event.title)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    `URL:${event.url}`,
    ...(event.categories && event.categories.length > 0 ? [`CATEGORIES:${event.categories.map(escapeText).join(',')}`] : []),
    'END:VEVENT',
  ];
}
