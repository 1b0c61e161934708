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
 * pieces to write one after another (a section may come in pieces of its own). `slack` spaces follow
 * the header's JSON, room for a later header of another length.
 */
export function layoutSections(magic: string, header: { sections: Record<string, [number, number]> }, sections: [string, Buffer | Buffer[]][], slack = 0): Buffer[] {
  // Offsets depend on the header's length, which depends on the offsets: lay out relative to the data start.
  let pos = 0;
  const lengths = sections.map(([, b]) => (Array.isArray(b) ? b.reduce((n, x) => n + x.length, 0) : b.length));
  sections.forEach(([name], k) => {
    header.sections[name] = [pos, lengths[k]];
    pos = align8(pos + lengths[k]);
  });
  const head = Buffer.from(JSON.stringify(header) + ' '.repeat(slack));
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
