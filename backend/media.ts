/**
 * Media generators for the embedded backend. Images (SVG), documents (PDF) and podcast audio (WAV) are
 * generated from their MediaSpec on request rather than committed or kept in memory: the bytes depend only
 * on the spec and the path, so every run serves identical files and a 50,000-page site costs nothing extra.
 */
import type { MediaSpec } from './content/types.ts';
import { createRandom, hashString, pickAt } from './content/random.ts';

/** A generated media file ready to send. */
export interface MediaFile {
  readonly contentType: string;
  readonly body: Buffer;
}

/**
 * Generates the bytes for one media path. Deterministic: the same spec and path give the same bytes. A
 * camera photo (photos.ts) comes asynchronously: its base may still have to be generated. photos.ts, and
 * sharp with it, loads with the first photo asked for: a backend serving the sample's SVGs (every build
 * without --endpoint starts one) never loads libvips.
 * @param path the root-relative URL path (`/media/news/x.svg`), used to seed image patterns
 */
export function renderMedia(spec: MediaSpec, path: string): MediaFile | Promise<MediaFile> {
  switch (spec.kind) {
    case 'photo':
      return import('./photos.ts').then(async ({ cameraPhoto }) => ({
        contentType: 'image/jpeg',
        body: await cameraPhoto(spec.tag, spec.photo),
      }));
    case 'file':
      return { contentType: spec.contentType, body: spec.body };
    case 'image':
      return { contentType: 'image/svg+xml', body: Buffer.from(renderSvg(path, spec.width, spec.height, spec.label), 'utf8') };
    case 'pdf':
      return { contentType: 'application/pdf', body: renderPdf(spec.title, spec.subtitle) };
    case 'audio':
      return { contentType: 'audio/wav', body: renderWav(spec.seconds, spec.frequency) };
    default: {
      const never: never = spec;
      throw new Error(`Unknown media kind: ${JSON.stringify(never)}`);
    }
  }
}

/**
 * An abstract SVG (gradient, circles and lines in a palette derived from `seed`) at the stated size, with
 * the alt text as its accessible title. About 1–2 kB.
 */
export function renderSvg(seed: string, width: number, height: number, label: string): string {
  const random = createRandom(hashString(seed));
  const hue = random.int(0, 359);
  const accent = (hue + pickAt([30, 150, 180, 210], random.int(0, 3))) % 360;
  const shapes: string[] = [];
  const circles = random.int(4, 7);
  for (let i = 0; i < circles; i++) {
    const r = Math.round(Math.min(width, height) * (0.08 + random.next() * 0.3));
    const fill = i % 2 === 0 ? `hsl(${accent}, 70%, ${45 + random.int(0, 25)}%)` : `hsl(${hue}, 60%, ${20 + random.int(0, 20)}%)`;
    shapes.push(
      `<circle cx="${random.int(0, width)}" cy="${random.int(0, height)}" r="${r}" fill="${fill}" fill-opacity="${(0.35 + random.next() * 0.5).toFixed(2)}"/>`,
    );
  }
  const lines = random.int(3, 6);
  for (let i = 0; i < lines; i++) {
    shapes.push(
      `<line x1="${random.int(0, width)}" y1="0" x2="${random.int(0, width)}" y2="${height}" stroke="hsl(${accent}, 80%, 85%)" stroke-width="${random.int(1, 6)}" stroke-opacity="0.6"/>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(label)}</title>`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue}, 55%, 22%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360}, 65%, 38%)"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#g)"/>`,
    ...shapes,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * A valid one-page PDF 1.4 (A4, Helvetica) showing the title, wrapped, and a subtitle line. The xref
 * table holds the exact byte offsets, so strict readers accept it. Text is reduced to printable ASCII
 * because the standard fonts' encoding cannot show anything else without embedding a font.
 */
export function renderPdf(title: string, subtitle: string): Buffer {
  const titleLines = wrapWords(toPdfText(title), 40);
  const ops: string[] = ['BT', '/F1 24 Tf', '72 760 Td', '30 TL'];
  for (const line of titleLines) ops.push(`(${line}) Tj T*`);
  ops.push('/F1 12 Tf', '10 TL', `(${toPdfText(subtitle)}) Tj`, 'ET');
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  // Every character is ASCII, so string length equals byte length and offsets can be summed directly.
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefOffset = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * A mono 8-bit 8 kHz WAV: a soft tone at `frequency` Hz with a fifth above it and fades at both ends,
 * so it is audible but not harsh. Two seconds is 16 kB.
 */
export function renderWav(seconds: number, frequency: number): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const buffer = Buffer.alloc(44 + samples);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate, 28); // byte rate: 1 byte per sample
  buffer.writeUInt16LE(1, 32); // block align
  buffer.writeUInt16LE(8, 34); // bits per sample
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples, 40);
  const fade = rate * 0.25;
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const envelope = Math.min(1, i / fade, (samples - i) / fade);
    const wave = 0.7 * Math.sin(2 * Math.PI * frequency * t) + 0.3 * Math.sin(2 * Math.PI * frequency * 1.5 * t);
    buffer.writeUInt8(Math.round(128 + 127 * 0.3 * envelope * wave), 44 + i);
  }
  return buffer;
}

// --- internal ---

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function toPdfText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[\\()]/g, (c) => `\\${c}`);
}

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
