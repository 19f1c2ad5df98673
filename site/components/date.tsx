import type { ReactElement } from 'react';
import { useSite } from '../../runtime/index.ts';
import { formatClock, formatDay, formatMonth, formatShortDay, formatTime, formatWeekday, isSameDay } from '../format/dates.ts';
import { timeZoneOf } from '../queries/site.ts';

export interface FormattedDateProps {
  /** ISO-8601 date or date-time. */
  value: string;
  /** `long`: 14 March 2026 · `short`: 14 Mar 2026 · `month`: March 2026. @default 'long' */
  style?: 'long' | 'short' | 'month';
}

const formatters = { long: formatDay, short: formatShortDay, month: formatMonth } as const;

/** A machine-readable `<time>` with text that reads the same on the server and in the browser, in the institute's time zone. */
export function FormattedDate({ value, style = 'long' }: FormattedDateProps): ReactElement {
  return <time dateTime={value}>{formatters[style](value, timeZoneOf(useSite()))}</time>;
}

export interface EventWhenProps {
  startsAt: string;
  endsAt: string;
}

/** When an event happens: one day with a time span, or a span of days. */
export function EventWhen({ startsAt, endsAt }: EventWhenProps): ReactElement {
  const zone = timeZoneOf(useSite());
  if (isSameDay(startsAt, endsAt, zone)) {
    return (
      <span className="event-when">
        {formatWeekday(startsAt, zone)} <FormattedDate value={startsAt} />, <time dateTime={startsAt}>{formatClock(startsAt, zone)}</time>
        {'–'}
        <time dateTime={endsAt}>{formatTime(endsAt, zone)}</time>
      </span>
    );
  }
  return (
    <span className="event-when">
      <FormattedDate value={startsAt} /> {formatTime(startsAt, zone)} – <FormattedDate value={endsAt} /> {formatTime(endsAt, zone)}
    </span>
  );
}

export interface PeriodProps {
  startDate: string;
  endDate: string | null;
}

/** A project's period in months; an open end reads "ongoing". */
export function Period({ startDate, endDate }: PeriodProps): ReactElement {
  return (
    <span className="period">
      <FormattedDate value={startDate} style="month" /> – {endDate ? <FormattedDate value={endDate} style="month" /> : 'ongoing'}
    </span>
  );
}
