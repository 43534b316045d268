#!/usr/bin/env node
// Draws images/icon.png (128×128): a white funnel (a filter) over three log lines on a teal tile.
// Plain PNG encoding with node:zlib, so no image library is needed. Run once; the PNG is committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const N = 128;
const px = Buffer.alloc(N * N * 4);
const set = (x, y, [r, g, b, a]) => px.set([r, g, b, a], (y * N + x) * 4);
const TILE = [0, 122, 122, 255];
const WHITE = [255, 255, 255, 255];
const LINE = [170, 230, 225, 255];
const R = 22; // corner radius

for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    const cx = Math.min(Math.max(x, R), N - 1 - R);
    const cy = Math.min(Math.max(y, R), N - 1 - R);
    if ((x - cx) ** 2 + (y - cy) ** 2 > R * R) continue; // transparent outside the rounded tile
    let c = TILE;
    // three log lines at the top
    for (const [ly, len] of [[18, 80], [30, 64], [42, 72]]) if (y >= ly && y < ly + 6 && x >= 24 && x < 24 + len) c = LINE;
    // funnel: a trapezoid narrowing into a spout
    const top = 56;
    if (y >= top && y < top + 28) {
      const half = 44 - ((y - top) * 32) / 28;
      if (Math.abs(x - 64) <= half) c = WHITE;
    }
    if (y >= top + 28 && y < top + 52 && Math.abs(x - 64) <= 9) c = WHITE;
    set(x, y, c);
  }
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
const raw = Buffer.concat(Array.from({ length: N }, (_, y) => Buffer.concat([Buffer.from([0]), px.subarray(y * N * 4, (y + 1) * N * 4)])));
const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
writeFileSync(new URL('../images/icon.png', import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
