/**
 * Writes the app's install icons (client/public/icons) from one drawing: a sand heap on a truck bed in
 * the theme colour. Run once after changing the drawing (`npx tsx scripts/icons.ts`); the PNGs are
 * committed, so builds need no image work.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'client', 'public', 'icons');

/** `safe` shrinks the drawing into the maskable safe zone (the inner 80 % circle). */
function drawing(safe: boolean) {
  const s = safe ? 0.7 : 0.92;
  const o = (512 - 512 * s) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" ${safe ? '' : 'rx="96"'} fill="#8a5a1c"/>
  <g transform="translate(${o} ${o}) scale(${s})">
    <path d="M96 300 Q256 96 416 300 Z" fill="#f2d59b"/>
    <rect x="72" y="300" width="368" height="56" rx="10" fill="#fff7e8"/>
    <circle cx="150" cy="392" r="36" fill="#2b1d0e"/>
    <circle cx="362" cy="392" r="36" fill="#2b1d0e"/>
  </g>
</svg>`;
}

mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  await sharp(Buffer.from(drawing(false)))
    .resize(size, size)
    .png()
    .toFile(join(out, `icon-${size}.png`));
  await sharp(Buffer.from(drawing(true)))
    .resize(size, size)
    .png()
    .toFile(join(out, `maskable-${size}.png`));
}
await sharp(Buffer.from(drawing(false)))
  .resize(180, 180)
  .png()
  .toFile(join(out, 'apple-touch-icon.png'));

/**
 * favicon.ico (browsers and crawlers ask for it at the root whatever the page says): 16, 32 and 48 px
 * PNGs in one ICO container (PNG entries are valid ICO images since Windows Vista and in every browser).
 */
const sizes = [16, 32, 48];
const pngs = await Promise.all(
  sizes.map((size) =>
    sharp(Buffer.from(drawing(false)))
      .resize(size, size)
      .png()
      .toBuffer(),
  ),
);
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // 1 = icon
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((size, i) => {
  const entry = 6 + 16 * i;
  header.writeUInt8(size, entry); // width (0 would mean 256)
  header.writeUInt8(size, entry + 1); // height
  header.writeUInt8(0, entry + 2); // no palette
  header.writeUInt8(0, entry + 3); // reserved
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(pngs[i]!.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += pngs[i]!.length;
});
writeFileSync(join(out, '..', 'favicon.ico'), Buffer.concat([header, ...pngs]));
console.log(`icons written to ${out}, favicon.ico beside them`);
