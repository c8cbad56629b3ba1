import { describe, expect, it } from 'vitest';
import { RecentImages } from './recent-images.js';

const variant = (size: number, tag = 'a') => ({ bytes: Buffer.alloc(size), etag: `"${tag}"` });

describe('RecentImages', () => {
  it('keeps the most recently used variants within its bound of bytes', () => {
    const recent = new RecentImages(100);
    recent.set('nails/a.webp', 320, variant(40, 'a'));
    recent.set('nails/b.webp', 320, variant(40, 'b'));
    expect(recent.get('nails/a.webp', 320)?.etag).toBe('"a"');
    recent.set('nails/c.webp', 320, variant(40, 'c'));
    // b was the least recently used when c pushed the total over 100 bytes.
    expect(recent.get('nails/b.webp', 320)).toBeUndefined();
    expect(recent.get('nails/a.webp', 320)?.etag).toBe('"a"');
    expect(recent.get('nails/c.webp', 320)?.etag).toBe('"c"');
    recent.set('nails/huge.webp', 320, variant(101));
    expect(recent.get('nails/huge.webp', 320)).toBeUndefined();
    expect(recent.get('nails/a.webp', 320)?.etag).toBe('"a"');
  });

  it('forgets every width of a removed image, and any copy older than its age limit', () => {
    let now = 0;
    const recent = new RecentImages(1000, 60_000, () => now);
    recent.set('nails/a.webp', 320, variant(10));
    recent.set('nails/a.webp', 640, variant(10));
    recent.set('nails/ab.webp', 320, variant(10));
    recent.forget('nails/a.webp');
    expect(recent.get('nails/a.webp', 320)).toBeUndefined();
    expect(recent.get('nails/a.webp', 640)).toBeUndefined();
    expect(recent.get('nails/ab.webp', 320)).toBeDefined();
    now = 60_001;
    expect(recent.get('nails/ab.webp', 320)).toBeUndefined();
  });
});
