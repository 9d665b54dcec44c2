/**
 * The Redis Cluster slot of a key (CRC16/XMODEM of the key, or of its hash tag, mod
 * 16384), as the cluster specification defines it: a durable write's pipeline goes to the
 * primary that serves its script's slot.
 */
export function keySlot(key: string): number {
  const bytes = new TextEncoder().encode(key);
  return crc16(hashTag(bytes)) & 16383;
}

const OPEN = 0x7b;
const CLOSE = 0x7d;

/** The bytes between the first `{` and the next `}`, when that is not empty; else the whole key. */
function hashTag(bytes: Uint8Array): Uint8Array {
  const open = bytes.indexOf(OPEN);
  if (open === -1) return bytes;
  const close = bytes.indexOf(CLOSE, open + 1);
  if (close === -1 || close === open + 1) return bytes;
  return bytes.subarray(open + 1, close);
}

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc;
}
