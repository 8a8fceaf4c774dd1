import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sniffRasterImage } from '../../common';
import { generatedAvatarPng } from './generated-avatar';

describe('generatedAvatarPng', () => {
  it('is a valid PNG, the same for the same seed and different for another', () => {
    const png = generatedAvatarPng('user-1');
    expect(sniffRasterImage(png.subarray(0, 32))).toBe('image/png');
    expect(generatedAvatarPng('user-1')).toEqual(png);
    expect(generatedAvatarPng('user-2')).not.toEqual(png);
    // IHDR says 76 × 76, and the image data inflates to exactly its scanlines (filter byte + RGB each).
    expect(png.readUInt32BE(16)).toBe(76);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toHaveLength(76 * (1 + 76 * 3));
  });
});
