/**
 * Number formatting without the visitor's locale: `toFixed` and fixed unit names give the same text on the
 * build machine and in every browser.
 */

const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;

/** `512 bytes`, `1.5 KB`, `12 MB` (binary multiples, one decimal below ten). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit: (typeof SIZE_UNITS)[number] = 'KB';
  for (const next of SIZE_UNITS.slice(1)) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${unit}`;
}

/** `32 min`, `1 h 5 min`, `45 s`, for podcast episodes. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.round((total % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

/** ISO-8601 duration for `<time dateTime>`: `PT1H5M12S`. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** A short label for a MIME type: `application/pdf` → `PDF`. */
export function fileTypeLabel(mimeType: string): string {
  const known: Record<string, string> = {
    'application/pdf': 'PDF',
    'application/msword': 'Word',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
    'application/vnd.ms-excel': 'Excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
    'text/csv': 'CSV',
    'application/zip': 'ZIP',
  };
  const label = known[mimeType.toLowerCase()];
  if (label) return label;
  const subtype = mimeType.split('/')[1] ?? mimeType;
  return subtype.replace(/^x-/, '').toUpperCase();
}

/** `1 item` / `3 items`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
