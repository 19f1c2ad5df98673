/**
 * A minimal EXIF reader for the backend tests: the tags of IFD0, the Exif IFD and the GPS IFD of the
 * `exif` buffer sharp's metadata() returns ("Exif\0\0" then a TIFF structure). Strings and rationals only,
 * which is what a camera photo's identifying tags are; other types read as null.
 */

/** Tags by number; a rational list reads as "n/d n/d …", as sharp's withExif writes it. */
export type ExifTags = Map<number, string | null>;

/** The tags of IFD0, the Exif IFD (0x8769) and the GPS IFD (0x8825). */
export function readExif(exif: Buffer): { ifd0: ExifTags; exifIfd: ExifTags; gps: ExifTags } {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number): number => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number): number => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const pointers = new Map<number, number>();
  const readIfd = (offset: number): ExifTags => {
    const tags: ExifTags = new Map();
    const count = u16(offset);
    for (let i = 0; i < count; i++) {
      const entry = offset + 2 + i * 12;
      const [tag, type, n] = [u16(entry), u16(entry + 2), u32(entry + 4)];
      const size = { 2: 1, 4: 4, 5: 8 }[type] ?? 0;
      const at = size * n > 4 ? u32(entry + 8) : entry + 8;
      if (type === 2) tags.set(tag, tiff.toString('latin1', at, at + n).replace(/\0+$/, ''));
      else if (type === 5) tags.set(tag, Array.from({ length: n }, (_, k) => `${u32(at + k * 8)}/${u32(at + k * 8 + 4)}`).join(' '));
      else if (type === 4 && n === 1) {
        pointers.set(tag, u32(at));
        tags.set(tag, String(u32(at)));
      } else tags.set(tag, null);
    }
    return tags;
  };
  const ifd0 = readIfd(u32(4));
  const exifIfd = pointers.has(0x8769) ? readIfd(pointers.get(0x8769)!) : new Map();
  const gps = pointers.has(0x8825) ? readIfd(pointers.get(0x8825)!) : new Map();
  return { ifd0, exifIfd, gps };
}

/** Tag numbers the tests name. */
export const TAGS = {
  Make: 0x010f,
  Model: 0x0110,
  Artist: 0x013b,
  BodySerialNumber: 0xa431,
  GPSLatitudeRef: 0x0001,
  GPSLatitude: 0x0002,
  GPSLongitudeRef: 0x0003,
  GPSLongitude: 0x0004,
} as const;
