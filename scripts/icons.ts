/**
 * Writes the app's install icons (client/public/icons) from one drawing: a sand heap on a truck bed in
 * the theme colour. Run once after changing the drawing (`npx tsx scripts/icons.ts`); the PNGs are
 * committed, so builds need no image work.
 */
import { mkdirSync } from 'node:fs';
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
console.log(`icons written to ${out}`);
