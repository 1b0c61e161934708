/**
 * The layout the query store and the packed graph share: a 4-byte magic, a u32 header length, a JSON
 * header naming each section's [offset, length] (offsets from the data start), then the sections, the
 * data start and each section 8-byte aligned so typed arrays can view them without a copy.
 */

export function align8(n: number): number {
  return (n + 7) & ~7;
}

/** Zeros for the gaps that align each section to 8 bytes. */
const ZEROS = Buffer.alloc(8);

/**
 * The header (its `sections` filled in here) and the sections, in order, as the file's bytes: the
 * pieces to write one after another (a section may come in pieces of its own).
 */
export function layoutSections(magic: string, header: { sections: Record<string, [number, number]> }, sections: [string, Buffer | Buffer[]][]): Buffer[] {
  // Offsets depend on the header's length, which depends on the offsets: lay out relative to the data start.
  let pos = 0;
  const lengths = sections.map(([, b]) => (Array.isArray(b) ? b.reduce((n, x) => n + x.length, 0) : b.length));
  sections.forEach(([name], k) => {
    header.sections[name] = [pos, lengths[k]];
    pos = align8(pos + lengths[k]);
  });
  const head = Buffer.from(JSON.stringify(header));
  const dataStart = align8(8 + head.length);
  const first = Buffer.alloc(dataStart);
  first.write(magic, 0, 'latin1');
  first.writeUInt32LE(head.length, 4);
  head.copy(first, 8);
  const parts: Buffer[] = [first];
  sections.forEach(([name, b], k) => {
    if (Array.isArray(b)) parts.push(...b);
    else parts.push(b);
    const at = header.sections[name][0];
    const gap = align8(at + lengths[k]) - (at + lengths[k]);
    if (gap > 0) parts.push(ZEROS.subarray(0, gap));
  });
  return parts;
}

/** What openSections finds at the start of a file laid out by layoutSections. */
export interface OpenedSections<H> {
  header: H;
  /** The sections' names, in the header's order. */
  names: string[];
  /** A section's bytes, where they lie; throws when there is no such section or it runs past the end. */
  section(name: string): Buffer;
}

/**
 * The header of `bytes` and a reader of its sections, or undefined when they do not begin with
 * `magic` and a header that fits. `bytes` may be the file's first bytes only: a section is checked
 * when it is read. Throws on a header that is not JSON; `what` names the file in errors.
 */
export function openSections<H extends { sections: Record<string, [number, number]> }>(bytes: Buffer, magic: string, what: string): OpenedSections<H> | undefined {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== magic) return undefined;
  const headerLength = bytes.readUInt32LE(4);
  if (8 + headerLength > bytes.length) return undefined;
  const header = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength)) as H;
  const base = align8(8 + headerLength);
  return {
    header,
    names: Object.keys(header.sections),
    section(name) {
      const place = header.sections[name];
      if (!place) throw new Error(`${what}: no section ${name}`);
      const [at, n] = place;
      if (base + at + n > bytes.length) throw new Error(`${what}: section ${name} runs past the end`);
      return bytes.subarray(base + at, base + at + n);
    },
  };
}

export type Words = Int32Array | Uint32Array | Float64Array | Uint8Array;
export interface WordsType<T extends Words> {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** The bytes as an array of `Type`: a view of them where they are aligned for it, else a copy. */
export function viewAs<T extends Words>(Type: WordsType<T>, b: Uint8Array): T {
  const size = Type.BYTES_PER_ELEMENT;
  return b.byteOffset % size === 0 ? new Type(b.buffer, b.byteOffset, b.length / size) : copyAs(Type, b);
}

/** The words' bytes, where they lie (no copy): what viewAs reads back. */
export function asBytes(a: Words): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** The bytes copied into a new array of `Type`, free to change without touching them. */
export function copyAs<T extends Words>(Type: WordsType<T>, b: Uint8Array): T {
  const out = new Type(b.length / Type.BYTES_PER_ELEMENT);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** UTF-8 text appended to a buffer that grows as needed (writing each piece once, measuring none). */
export class ByteWriter {
  private buf: Buffer;
  length = 0;

  /** `into`: memory to write in (see memory) instead of `capacity` new bytes; new memory is taken when it is full. */
  constructor(capacity: number, into?: Buffer) {
    // Never from Buffer's shared pool: the memory is the writer's alone, so it can be written over again.
    this.buf = into ?? Buffer.allocUnsafeSlow(Math.max(capacity, 1024));
  }

  write(s: string): void {
    // A UTF-16 code unit is at most three UTF-8 bytes.
    this.grow(this.length + s.length * 3);
    this.length += this.buf.write(s, this.length);
  }

  writeBytes(b: Uint8Array): void {
    this.grow(this.length + b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }

  /** All the memory the writer wrote in (bytes and the room after them): a later writer's `into`. */
  memory(): Buffer {
    return this.buf;
  }

  private grow(need: number): void {
    if (need <= this.buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
}
