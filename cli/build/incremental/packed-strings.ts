import { detach } from '../../content/detach.ts';

/**
 * A column of strings, one per row, packed as UTF-8 into large blocks of bytes instead of kept as
 * strings on the heap. A build keeps a few strings for every page until its end (title, hash, what it
 * depends on, its media, its lastmod): as strings, a 60-character title with one character past Latin-1
 * (an em dash) takes 16 bytes of header and 2 bytes a character, and each string is one more object for
 * every full collection to mark. Packed, it is its UTF-8 bytes and 12 bytes of position, outside V8's
 * heap; a row's string is made again when it is read, which the build's end does once or twice a page.
 *
 * Nothing is lost: a string that is not well-formed UTF-16 (a lone surrogate, which UTF-8 cannot carry)
 * or that is long is kept as it is, and null and undefined come back as themselves. With `share`, the
 * first `share` distinct values are kept once each (the layout's ids, which nearly every page has).
 * Strings kept as strings are copies (content/detach.ts): never a view of a page's HTML.
 */
export class PackedStrings {
  private readonly blocks: Buffer[] = [];
  /** Bytes used in the last block. */
  private used = BLOCK;
  /** Per row: the byte position (block * BLOCK + offset), or the index into `shared`. */
  private starts = new Uint32Array(INITIAL_ROWS);
  /** Per row: the UTF-8 length, or one of the marks below. */
  private lengths = new Uint32Array(INITIAL_ROWS);
  private rows = 0;
  /** Rows whose string is kept as it is: not well-formed, or long. */
  private readonly kept = new Map<number, string>();
  private readonly shared: string[] = [];
  private readonly sharedIndex = new Map<string, number>();

  constructor(private readonly share = 0) {}

  get length(): number {
    return this.rows;
  }

  /** Appends a row; returns its index. */
  push(text: string | null | undefined): number {
    const row = this.rows;
    if (row === this.starts.length) this.grow();
    this.rows++;
    if (text === null || text === undefined) {
      this.lengths[row] = text === null ? NULL : UNDEFINED;
      return row;
    }
    if (this.share > 0) {
      let index = this.sharedIndex.get(text);
      if (index === undefined && this.shared.length < this.share) {
        const copy = detach(text);
        index = this.shared.push(copy) - 1;
        this.sharedIndex.set(copy, index);
      }
      if (index !== undefined) {
        this.starts[row] = index;
        this.lengths[row] = SHARED;
        return row;
      }
    }
    const bytes = Buffer.byteLength(text);
    if (bytes > LONG || !text.isWellFormed()) {
      this.kept.set(row, detach(text));
      this.lengths[row] = KEPT;
      return row;
    }
    if (bytes === 0) {
      this.lengths[row] = 0;
      return row;
    }
    if (this.used + bytes > BLOCK) {
      // Positions are 32-bit: 4 GiB of packed text a column, hundreds of times a large site's.
      if (this.blocks.length === MAX_BLOCKS) throw new RangeError(`more than ${MAX_BLOCKS * BLOCK} bytes of text in one column`);
      this.blocks.push(Buffer.allocUnsafeSlow(BLOCK));
      this.used = 0;
    }
    const block = this.blocks.length - 1;
    this.blocks[block]!.write(text, this.used, bytes, 'utf8');
    this.starts[row] = block * BLOCK + this.used;
    this.lengths[row] = bytes;
    this.used += bytes;
    return row;
  }

  /** The string of a row, as it was pushed. */
  at(row: number): string | null | undefined {
    if (!(row >= 0 && row < this.rows)) throw new RangeError(`row ${row} of ${this.rows}`);
    const length = this.lengths[row]!;
    switch (length) {
      case NULL:
        return null;
      case UNDEFINED:
        return undefined;
      case KEPT:
        return this.kept.get(row)!;
      case SHARED:
        return this.shared[this.starts[row]!]!;
      case 0:
        return '';
      default: {
        const start = this.starts[row]!;
        const offset = start % BLOCK;
        return this.blocks[(start - offset) / BLOCK]!.toString('utf8', offset, offset + length);
      }
    }
  }

  /** The string of a row, which must not be null or undefined. */
  text(row: number): string {
    const text = this.at(row);
    if (typeof text !== 'string') throw new TypeError(`row ${row} holds ${String(text)}, not a string`);
    return text;
  }

  private grow(): void {
    this.starts = grown(this.starts);
    this.lengths = grown(this.lengths);
  }
}

/**
 * A column of numbers, one per row, in a typed array grown by doubling: no object per row, where a field
 * of an object per page was a slot of that object. `Float64Array` (the default) holds any number, NaN
 * included; `Uint32Array` holds counts and sizes below 2^32 in half the space, and refuses any other.
 */
export class PackedNumbers {
  private values: Float64Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;
  private rows = 0;

  constructor(kind: 'float64' | 'uint32' = 'float64') {
    this.values = kind === 'uint32' ? new Uint32Array(INITIAL_ROWS) : new Float64Array(INITIAL_ROWS);
  }

  get length(): number {
    return this.rows;
  }

  push(value: number): number {
    if (this.values instanceof Uint32Array && !(Number.isInteger(value) && value >= 0 && value <= 0xffffffff))
      throw new RangeError(`${value} is not a count below 2^32`);
    if (this.rows === this.values.length) this.values = grown(this.values);
    this.values[this.rows] = value;
    return this.rows++;
  }

  at(row: number): number {
    if (!(row >= 0 && row < this.rows)) throw new RangeError(`row ${row} of ${this.rows}`);
    return this.values[row]!;
  }
}

/** A copy of a typed array, twice its length. */
export function grown<T extends Float64Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(array: T): T {
  const copy = new (array.constructor as new (length: number) => T)(array.length * 2);
  copy.set(array);
  return copy;
}

// --- internal ---

/** Bytes of one block: the most a column wastes at its end. */
const BLOCK = 256 * 1024;
/** Strings longer than this (in UTF-8 bytes) are kept as they are: a block holds many rows. */
const LONG = BLOCK / 16;
const INITIAL_ROWS = 1024;
/** Blocks a column may have: its positions stay below 2^32. */
const MAX_BLOCKS = 2 ** 32 / BLOCK - 1;

// Marks in `lengths`; a packed string's length is below them (at most LONG).
const NULL = 0xffffffff;
const UNDEFINED = 0xfffffffe;
const KEPT = 0xfffffffd;
const SHARED = 0xfffffffc;
