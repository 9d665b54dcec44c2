import { inflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

/** An element's box on the page, in CSS pixels. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** What is wrong with how some elements are laid out (empty: each is visible, inside the viewport, and overlaps none of the others). */
export async function layoutProblems(page: Page, elements: readonly Locator[]): Promise<string[]> {
  const viewport = page.viewportSize();
  if (viewport === null) return ['the page has no viewport size'];
  const problems: string[] = [];
  const boxes: Box[] = [];
  for (const [index, element] of elements.entries()) {
    await element.scrollIntoViewIfNeeded();
    const box = await element.boundingBox();
    const name = `#${index} ${JSON.stringify(((await element.textContent()) ?? '').trim().slice(0, 40))}`;
    if (box === null || !(await element.isVisible())) {
      problems.push(`${name} is not visible`);
      continue;
    }
    if (box.width < 1 || box.height < 1) problems.push(`${name} has an empty box ${JSON.stringify(box)}`);
    // After scrolling it into view, the whole box is on the screen.
    if (box.x < 0 || box.y < 0 || box.x + box.width > viewport.width + 0.5 || box.y + box.height > viewport.height + 0.5) {
      problems.push(`${name} ${JSON.stringify(box)} leaves the ${viewport.width}x${viewport.height} viewport`);
    }
    // Boxes are compared in page coordinates (scrolling moves every box alike).
    const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
    const onPage = { ...box, x: box.x + scroll.x, y: box.y + scroll.y };
    for (const [other, otherBox] of boxes.entries()) {
      if (overlap(onPage, otherBox)) problems.push(`${name} overlaps #${other}`);
    }
    boxes.push(onPage);
  }
  return problems;
}

/** True when two boxes share more than a hairline (borders that touch do not count). */
function overlap(a: Box, b: Box): boolean {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0.5 && height > 0.5;
}

/** Width and height of a PNG from its IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((byte, i) => png[i] !== byte)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (String.fromCharCode(...png.subarray(12, 16)) !== 'IHDR') throw new Error('a PNG without IHDR first');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * How many distinct byte values the PNG's (filtered) pixel data holds: a blank, one-colour
 * screenshot has a handful, a page with text and badges has hundreds. Not a pixel comparison.
 */
export function pngByteVariety(png: Uint8Array): number {
  pngSize(png);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return new Set(inflateSync(Buffer.concat(parts))).size;
}
